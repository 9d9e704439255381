package auth

import "context"

// Principal is who a request authenticated as. Sessions belong to Name.
type Principal struct {
	Name     string   // the token's name in the tokens file, or the JWT's sub (client_id when it has none)
	Method   string   // "token" or "jwt"
	Issuer   string   // JWT iss
	ClientID string   // JWT client_id (or azp)
	Scopes   []string // JWT scopes; nil for a static token
}

type principalKey struct{}

// WithPrincipal returns ctx carrying p.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// FromContext returns the principal a Guard put in a request's context.
func FromContext(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok
}
