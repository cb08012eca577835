package trustlist

// Test-only views of the vocabulary tables, so that the black-box tests
// can check the decision document against every entry.
var (
	ServiceTypeTable = serviceTypes
	StatusTable      = statuses
)
