package hsm

import (
	"fmt"
	"slices"
	"strings"
)

// PartitionSessions counts the sessions of one partition's pool.
type PartitionSessions struct {
	// Partition names the token: its label, or "slot N" when the
	// partition names a slot. Never the PIN, nor the module's path.
	Partition string
	// Open sessions, of which InUse are busy with an operation.
	Open, InUse int
}

// Sessions reports the sessions of each partition used so far, ordered
// by name, for the operator's metrics. The counts are a moment's: an
// operation may take or give back a session meanwhile.
func (h *HSM) Sessions() []PartitionSessions {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]PartitionSessions, 0, len(h.pools))
	for key, pl := range h.pools {
		open := len(pl.sem)
		name := key.label
		if key.bySlot {
			name = fmt.Sprintf("slot %d", key.slot)
		}
		out = append(out, PartitionSessions{Partition: name, Open: open, InUse: max(open-len(pl.idle), 0)})
	}
	slices.SortFunc(out, func(a, b PartitionSessions) int { return strings.Compare(a.Partition, b.Partition) })
	return out
}
