package etsi

// MaxTimestamps is the number of a signature's time-stamps the process
// judges, in document order; later ones are ignored (no POE, no level)
// with a TOO_MANY_TIMESTAMPS warning. Each judged time-stamp costs a path
// building bounded by certpath.MaxSignatureChecks.
const MaxTimestamps = 32
