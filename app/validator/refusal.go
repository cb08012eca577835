package validator

import "fmt"

// A RefusalError is a request, a sign-in or a session this service
// refused for the caller's reason: a bearer token or a sign-in that does
// not authenticate (ErrUnauthenticated, 401), a provider's answer that
// belongs to no sign-in in progress (ErrLoginState, 401), or a tenant
// that may not use the service (ErrForbidden, 403). Its Detail is what
// the caller may be told, in words chosen where the refusal is made: a
// server shows it as it is and never reads the error's text.
type RefusalError struct {
	// Kind is ErrUnauthenticated, ErrLoginState or ErrForbidden.
	Kind error
	// Detail says why, as a clause that starts in lower case and has no
	// final stop (the servers set it in their own sentences). It never
	// holds a token nor anything read from one before its signature
	// verified, nor the provider's URL, nor what the control database
	// holds beyond the tenant's ID; empty when there is nothing to add to
	// the kind.
	Detail string
	// Err, when not nil, is the cause, for the log: it may say more than
	// Detail.
	Err error
}

func (e *RefusalError) Error() string {
	msg := e.Kind.Error()
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *RefusalError) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

// refusal is a RefusalError of kind without a cause, its detail made of
// format and args.
func refusal(kind error, format string, args ...any) *RefusalError {
	return &RefusalError{Kind: kind, Detail: fmt.Sprintf(format, args...)}
}
