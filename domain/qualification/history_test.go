package qualification_test

import (
	"testing"
	"time"

	"github.com/svc-dss/dss/domain/qualification"
	"github.com/svc-dss/dss/domain/trust"
)

func year(y int) time.Time { return time.Date(y, 3, 1, 0, 0, 0, 0, time.UTC) }

// qtst is a TSA/QTST service with its current status and history entries
// in the order given, as a list states them.
func qtst(current trust.StatusPeriod, history ...trust.StatusPeriod) []qualification.Listing {
	s := &trust.Service{Name: "QTSA", Type: trust.TypeQTST, Status: current.Status, StatusStart: current.Start, History: history}
	for i := range s.History {
		s.History[i].Type = trust.TypeQTST
	}
	return []qualification.Listing{{Service: s, Territory: "DE", Framework: trust.EUEIDAS}}
}

func granted(y int) trust.StatusPeriod {
	return trust.StatusPeriod{Status: trust.StatusGranted, Start: year(y)}
}
func withdrawn(y int) trust.StatusPeriod {
	return trust.StatusPeriod{Status: trust.StatusWithdrawn, Start: year(y)}
}

// The status in force at a time, read as TS 119 612 §5.5.4 and §5.6 say:
// the current status from its StatusStartingTime on, each history entry
// from its own start until the next later one's. A time-stamp is QTSA
// exactly when a granted TSA/QTST status is in force at the probed time.
func TestStatusHistory(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		listings []qualification.Listing
		at       time.Time
		want     string
	}{
		{"newest first: before the first status", qtst(withdrawn(2022), granted(2018)), year(2017), qualification.TSA},
		{"newest first: history entry in force", qtst(withdrawn(2022), granted(2018)), year(2020), qualification.QTSA},
		{"newest first: current status from its start", qtst(withdrawn(2022), granted(2018)), year(2022), qualification.TSA},
		{"newest first: current status after its start", qtst(withdrawn(2022), granted(2018)), year(2024), qualification.TSA},
		{"history ends where the next later one starts", qtst(granted(2024), withdrawn(2020), granted(2018)), year(2022), qualification.TSA},
		{"unsorted history", qtst(granted(2024), granted(2018), withdrawn(2020)), year(2022), qualification.TSA},
		{"unsorted history: older entry in force", qtst(granted(2024), granted(2018), withdrawn(2020)), year(2019), qualification.QTSA},
		{"history dated after the current status does not override it", qtst(withdrawn(2020), granted(2021)), year(2022), qualification.TSA},
		{"history dated after the current status, before it starts", qtst(withdrawn(2020), granted(2021), granted(2018)), year(2019), qualification.QTSA},
		{"history dated after the current status, between", qtst(withdrawn(2020), granted(2021)), year(2020).AddDate(0, 6, 0), qualification.TSA},
		{"history starting with the current status: current wins", qtst(withdrawn(2020), granted(2020)), year(2020), qualification.TSA},
		{"history starting with the current status: current wins, granted", qtst(granted(2020), withdrawn(2020)), year(2022), qualification.QTSA},
		{"two history entries with one start: the one listed first", qtst(withdrawn(2024), granted(2018), withdrawn(2018)), year(2020), qualification.QTSA},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := qualification.TimestampQualification(tt.listings, tt.at, tt.at); got != tt.want {
				t.Errorf("at %s: %s, want %s", tt.at.Format(time.DateOnly), got, tt.want)
			}
		})
	}
}
