package timestamp

// MaxDetached is the most detached parts a time-stamp is checked against:
// each costs a hash of the part.
const MaxDetached = 64
