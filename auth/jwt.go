package auth

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
)

// JWTConfig says which access tokens to accept.
type JWTConfig struct {
	Issuer   string        // iss; its discovery document names the JWKS unless JWKSURL is set
	JWKSURL  string        // the issuer's keys, when discovery is not wanted or possible
	Audience string        // this server's resource identifier (RFC 8707): a token must name it in aud
	Scope    string        // the scope a token must grant
	Leeway   time.Duration // allowed clock skew on exp and nbf; default 30 s
}

// JWT verifies access tokens against an issuer's keys.
type JWT struct {
	cfg      JWTConfig
	verifier *oidc.IDTokenVerifier
	now      func() time.Time
}

// signingAlgs are the asymmetric algorithms accepted: "none" and the HMAC family are
// not, so a token signed with the public key as an HMAC secret fails.
var signingAlgs = []string{
	oidc.RS256, oidc.RS384, oidc.RS512, oidc.ES256, oidc.ES384, oidc.ES512,
	oidc.PS256, oidc.PS384, oidc.PS512, oidc.EdDSA,
}

// errTokenInvalid and errScope are what Verify's callers branch on.
var (
	errTokenInvalid = errors.New("invalid token")
	errScope        = errors.New("insufficient scope")
)

// NewJWT prepares a verifier. With an issuer and no JWKS URL it fetches the issuer's
// OpenID discovery document now (bounded by ctx) to learn its jwks_uri. Without an
// issuer the token's iss is not checked; the audience always is.
func NewJWT(ctx context.Context, cfg JWTConfig) (*JWT, error) {
	if cfg.Audience == "" {
		return nil, errors.New("a JWT issuer needs this server's public URL (the token audience)")
	}
	if cfg.Issuer == "" && cfg.JWKSURL == "" {
		return nil, errors.New("need an issuer or a JWKS URL")
	}
	if cfg.Leeway <= 0 {
		cfg.Leeway = 30 * time.Second
	}
	oc := &oidc.Config{
		ClientID:             cfg.Audience,
		SupportedSigningAlgs: signingAlgs,
		SkipExpiryCheck:      true, // checked below with a leeway of our choosing
		SkipIssuerCheck:      cfg.Issuer == "",
	}
	// The key set's context lives as long as the server: it is used for refreshes.
	keysCtx := context.WithoutCancel(ctx)
	j := &JWT{cfg: cfg, now: time.Now}
	if cfg.JWKSURL != "" {
		j.verifier = oidc.NewVerifier(cfg.Issuer, oidc.NewRemoteKeySet(keysCtx, cfg.JWKSURL), oc)
		return j, nil
	}
	p, err := oidc.NewProvider(oidc.ClientContext(ctx, nil), cfg.Issuer)
	if err != nil {
		return nil, fmt.Errorf("discover issuer %s: %w", cfg.Issuer, err)
	}
	var meta struct {
		JWKS string `json:"jwks_uri"`
	}
	if err := p.Claims(&meta); err != nil || meta.JWKS == "" {
		return nil, fmt.Errorf("issuer %s: discovery document names no jwks_uri", cfg.Issuer)
	}
	j.verifier = oidc.NewVerifier(cfg.Issuer, oidc.NewRemoteKeySet(keysCtx, meta.JWKS), oc)
	return j, nil
}

// accessClaims are the claims read from a verified token.
type accessClaims struct {
	Subject  string   `json:"sub"`
	ClientID string   `json:"client_id"`
	AZP      string   `json:"azp"`
	Scope    string   `json:"scope"`
	SCP      scopeSet `json:"scp"`
	Exp      *float64 `json:"exp"`
	NBF      *float64 `json:"nbf"`
}

// scopeSet accepts "scp" as an array or a space-separated string.
type scopeSet []string

func (s *scopeSet) UnmarshalJSON(b []byte) error {
	var list []string
	if err := json.Unmarshal(b, &list); err == nil {
		*s = list
		return nil
	}
	var one string
	if err := json.Unmarshal(b, &one); err != nil {
		return err
	}
	*s = strings.Fields(one)
	return nil
}

// Verify checks a raw token and returns its principal. Its errors wrap
// errTokenInvalid or errScope.
func (j *JWT) Verify(ctx context.Context, raw string) (Principal, error) {
	tok, err := j.verifier.Verify(ctx, raw)
	if err != nil {
		return Principal{}, fmt.Errorf("%w: %v", errTokenInvalid, err)
	}
	var c accessClaims
	if err := tok.Claims(&c); err != nil {
		return Principal{}, fmt.Errorf("%w: claims: %v", errTokenInvalid, err)
	}
	now := j.now()
	switch {
	case c.Exp == nil:
		return Principal{}, fmt.Errorf("%w: no exp claim", errTokenInvalid)
	case now.After(unix(*c.Exp).Add(j.cfg.Leeway)):
		return Principal{}, fmt.Errorf("%w: expired at %s", errTokenInvalid, unix(*c.Exp).UTC().Format(time.RFC3339))
	case c.NBF != nil && now.Add(j.cfg.Leeway).Before(unix(*c.NBF)):
		return Principal{}, fmt.Errorf("%w: not valid before %s", errTokenInvalid, unix(*c.NBF).UTC().Format(time.RFC3339))
	}
	p := Principal{Method: "jwt", Issuer: tok.Issuer, ClientID: cmp.Or(c.ClientID, c.AZP), Scopes: append(strings.Fields(c.Scope), c.SCP...)}
	p.Name = cmp.Or(c.Subject, p.ClientID)
	if p.Name == "" {
		return Principal{}, fmt.Errorf("%w: neither sub nor client_id names a principal", errTokenInvalid)
	}
	if !slices.Contains(p.Scopes, j.cfg.Scope) {
		return p, fmt.Errorf("%w: the token does not grant scope %q", errScope, j.cfg.Scope)
	}
	return p, nil
}

func unix(sec float64) time.Time {
	return time.Unix(0, int64(sec*float64(time.Second)))
}
