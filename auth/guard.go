package auth

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// Guard is the middleware that authenticates every request to the MCP endpoint.
type Guard struct {
	Tokens *Tokens // static tokens; nil for none
	JWT    *JWT    // issuer-signed tokens; nil for none
	Scope  string  // the scope named in challenges
	// PublicURL is this server's resource identifier; when empty, challenges name
	// the metadata at the address the request came to.
	PublicURL string
	// Failed is told of every failed attempt (not of a request that carried no
	// token), with the source address and a reason that holds no token.
	Failed func(r *http.Request, source, reason string)
	Limit  *Limiter // failed attempts per source address; nil for no limit
}

// Wrap returns next behind the guard.
func (g *Guard) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		source := Source(r)
		if wait := g.Limit.Blocked(LimitKey(source)); wait > 0 {
			w.Header().Set("Retry-After", fmt.Sprint(int(wait.Seconds())+1))
			http.Error(w, "too many failed authentication attempts", http.StatusTooManyRequests)
			return
		}
		token, ok := bearer(r)
		if !ok {
			g.challenge(w, r, http.StatusUnauthorized, "", "")
			return
		}
		p, err := g.authenticate(r.Context(), token)
		if err != nil {
			reason := err.Error()
			if g.Failed != nil {
				g.Failed(r, source, reason)
			}
			g.Limit.Fail(LimitKey(source))
			if errors.Is(err, errScope) {
				g.challenge(w, r, http.StatusForbidden, "insufficient_scope", reason)
				return
			}
			g.challenge(w, r, http.StatusUnauthorized, "invalid_token", reason)
			return
		}
		next.ServeHTTP(w, r.WithContext(WithPrincipal(r.Context(), p)))
	})
}

// authenticate tries the static tokens, then the issuer.
func (g *Guard) authenticate(ctx context.Context, token string) (Principal, error) {
	if g.Tokens != nil {
		if name, ok := g.Tokens.Lookup(token); ok {
			return Principal{Name: name, Method: "token"}, nil
		}
	}
	if g.JWT != nil && strings.Count(token, ".") == 2 {
		return g.JWT.Verify(ctx, token)
	}
	return Principal{}, fmt.Errorf("%w: not a known token", errTokenInvalid)
}

// bearer extracts the token of an "Authorization: Bearer" header.
func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(h, " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", false
	}
	return token, true
}

// challenge answers with RFC 6750's WWW-Authenticate and RFC 9728's
// resource_metadata. The description never quotes the token.
func (g *Guard) challenge(w http.ResponseWriter, r *http.Request, status int, code, desc string) {
	params := []string{
		fmt.Sprintf("resource_metadata=%q", MetadataURL(g.PublicURL, r)),
		fmt.Sprintf("scope=%q", g.Scope),
	}
	if code != "" {
		params = append(params, fmt.Sprintf("error=%q", code), fmt.Sprintf("error_description=%q", sanitize(desc)))
	}
	w.Header().Set("WWW-Authenticate", "Bearer "+strings.Join(params, ", "))
	http.Error(w, http.StatusText(status), status)
}

// sanitize keeps a description to the characters RFC 6750 allows in it.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			return '\''
		}
		return r
	}, s)
}

// MetadataURL is where this resource's RFC 9728 metadata is served: the well-known
// path on the public URL's origin, with the public URL's path appended.
func MetadataURL(publicURL string, r *http.Request) string {
	if u, err := url.Parse(publicURL); err == nil && u.Host != "" {
		return u.Scheme + "://" + u.Host + MetadataPath + strings.TrimRight(u.Path, "/")
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + MetadataPath + "/mcp"
}

// MetadataPath is RFC 9728's well-known path.
const MetadataPath = "/.well-known/oauth-protected-resource"

// LimitKey is what failed attempts are counted by: an IPv4 address, or an IPv6
// address's /64, which one host commonly holds whole (each of its addresses would
// otherwise get attempts of its own).
func LimitKey(source string) string {
	ip, err := netip.ParseAddr(source)
	if err != nil {
		return source
	}
	if ip = ip.Unmap(); ip.Is4() {
		return ip.String()
	}
	p, err := ip.WithZone("").Prefix(64)
	if err != nil {
		return source
	}
	return p.String()
}

// Source is the address a request came from, without its port.
func Source(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
