package integration

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// issuer is an in-test OIDC issuer: discovery, a JWKS it can rotate, and keys to
// sign access tokens with.
type issuer struct {
	t   *testing.T
	srv *httptest.Server

	mu     sync.Mutex
	keys   map[string]*rsa.PrivateKey // kid -> key
	public []string                   // kids published in the JWKS
}

func newIssuer(t *testing.T) *issuer {
	t.Helper()
	is := &issuer{t: t, keys: map[string]*rsa.PrivateKey{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{
			"issuer": is.srv.URL, "jwks_uri": is.srv.URL + "/jwks",
			"authorization_endpoint": is.srv.URL + "/authorize", "token_endpoint": is.srv.URL + "/token",
			"id_token_signing_alg_values_supported": []string{"RS256"},
		})
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, r *http.Request) {
		is.mu.Lock()
		defer is.mu.Unlock()
		var set jose.JSONWebKeySet
		for _, kid := range is.public {
			set.Keys = append(set.Keys, jose.JSONWebKey{Key: &is.keys[kid].PublicKey, KeyID: kid, Algorithm: "RS256", Use: "sig"})
		}
		_ = json.NewEncoder(w).Encode(set)
	})
	// Assigned before it serves: its handlers read is.srv, and the requests come
	// from the server under test, another process, so nothing else orders that
	// read after this write.
	is.srv = httptest.NewUnstartedServer(mux)
	is.srv.Start()
	t.Cleanup(is.srv.Close)
	is.addKey("k1", true)
	return is
}

// addKey makes a key; published ones appear in the JWKS.
func (is *issuer) addKey(kid string, publish bool) {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		is.t.Fatal(err)
	}
	is.mu.Lock()
	defer is.mu.Unlock()
	is.keys[kid] = k
	if publish {
		is.public = append(is.public, kid)
	}
}

// claims are a valid access token's claims for audience aud, changed by edit.
func (is *issuer) claims(aud string, edit func(map[string]any)) map[string]any {
	now := time.Now()
	c := map[string]any{
		"iss": is.srv.URL, "sub": "carol", "aud": aud, "client_id": "agent-app",
		"scope": "openid terminal", "iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(),
	}
	if edit != nil {
		edit(c)
	}
	return c
}

// sign signs claims with key kid (RS256).
func (is *issuer) sign(kid string, claims map[string]any) string {
	is.mu.Lock()
	key := is.keys[kid]
	is.mu.Unlock()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: key, KeyID: kid}},
		(&jose.SignerOptions{}).WithType("at+jwt"))
	if err != nil {
		is.t.Fatal(err)
	}
	tok, err := jwt.Signed(signer).Claims(claims).Serialize()
	if err != nil {
		is.t.Fatal(err)
	}
	return tok
}

// forge builds the tokens an attacker would: alg "none", and HS256 keyed with the
// issuer's public key (the algorithm-confusion attack).
func (is *issuer) forge(alg string, claims map[string]any) string {
	enc := base64.RawURLEncoding
	header, _ := json.Marshal(map[string]string{"alg": alg, "typ": "JWT", "kid": "k1"})
	payload, _ := json.Marshal(claims)
	input := enc.EncodeToString(header) + "." + enc.EncodeToString(payload)
	if alg == "none" {
		return input + "."
	}
	is.mu.Lock()
	der, err := x509.MarshalPKIXPublicKey(&is.keys["k1"].PublicKey)
	is.mu.Unlock()
	if err != nil {
		is.t.Fatal(err)
	}
	mac := hmac.New(sha256.New, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
	mac.Write([]byte(input))
	return input + "." + enc.EncodeToString(mac.Sum(nil))
}

const jwtAudience = "https://term.test/mcp"

func TestHTTPJWTTokenCases(t *testing.T) {
	t.Parallel()
	is := newIssuer(t)
	h := startHTTP(t, []string{"--oauth-issuer", is.srv.URL, "--public-url", jwtAudience, "--allow-shared-user"})
	is.addKey("unpublished", false)
	valid := is.claims(jwtAudience, nil)
	cases := []struct {
		name   string
		token  string
		status int
		error  string // the WWW-Authenticate error, "" for none
	}{
		{"valid", is.sign("k1", valid), 200, ""},
		{"expired", is.sign("k1", is.claims(jwtAudience, func(c map[string]any) { c["exp"] = time.Now().Add(-5 * time.Minute).Unix() })), 401, "invalid_token"},
		{"not yet valid", is.sign("k1", is.claims(jwtAudience, func(c map[string]any) {
			c["nbf"] = time.Now().Add(5 * time.Minute).Unix()
			c["exp"] = time.Now().Add(10 * time.Minute).Unix()
		})), 401, "invalid_token"},
		{"wrong issuer", is.sign("k1", is.claims(jwtAudience, func(c map[string]any) { c["iss"] = "https://other-issuer.example" })), 401, "invalid_token"},
		{"wrong audience", is.sign("k1", is.claims(jwtAudience, func(c map[string]any) { c["aud"] = "https://other.example/mcp" })), 401, "invalid_token"},
		{"missing scope", is.sign("k1", is.claims(jwtAudience, func(c map[string]any) { c["scope"] = "openid profile" })), 403, "insufficient_scope"},
		{"unknown kid", is.sign("unpublished", valid), 401, "invalid_token"},
		{"alg none", is.forge("none", valid), 401, "invalid_token"},
		{"HS256 keyed with the public key", is.forge("HS256", valid), 401, "invalid_token"},
	}
	for _, tc := range cases {
		resp, body := h.post(t, map[string]string{"Authorization": "Bearer " + tc.token}, "")
		www := resp.Header.Get("WWW-Authenticate")
		if resp.StatusCode != tc.status {
			t.Errorf("%s: status %d, want %d (%s; %s)", tc.name, resp.StatusCode, tc.status, www, body)
			continue
		}
		if tc.error == "" {
			continue
		}
		for _, want := range []string{`error="` + tc.error + `"`, `scope="terminal"`,
			`resource_metadata="https://term.test/.well-known/oauth-protected-resource/mcp"`} {
			if !strings.Contains(www, want) {
				t.Errorf("%s: WWW-Authenticate %q lacks %s", tc.name, www, want)
			}
		}
		if strings.Contains(www, tc.token) || strings.Contains(h.stderr.String(), tc.token) {
			t.Errorf("%s: the token was echoed", tc.name)
		}
	}
	// A key the issuer publishes after the server cached its JWKS is fetched on
	// first sight of its kid.
	is.addKey("k2", true)
	if resp, _ := h.post(t, map[string]string{"Authorization": "Bearer " + is.sign("k2", valid)}, ""); resp.StatusCode != 200 {
		t.Errorf("token signed with a rotated-in key: %d", resp.StatusCode)
	}

	var meta map[string]any
	getJSON(t, h.base+"/.well-known/oauth-protected-resource", &meta)
	if meta["resource"] != jwtAudience || len(meta["authorization_servers"].([]any)) != 1 || meta["authorization_servers"].([]any)[0] != is.srv.URL {
		t.Errorf("metadata %v", meta)
	}
}

// An issuer vouches for many subjects: with sessions not isolated and without
// the opt-out, the server refuses.
func TestHTTPJWTIssuerIsSeveralPrincipals(t *testing.T) {
	t.Parallel()
	is := newIssuer(t)
	out := failStart(t, []string{"--http", "127.0.0.1:0", "--isolation", "off", "--oauth-issuer", is.srv.URL, "--public-url", jwtAudience})
	if !strings.Contains(out, "--allow-shared-user") {
		t.Fatalf("refusal does not name the opt-out:\n%s", out)
	}
}

// A JWT's subject is the principal; the audit log keeps its non-secret claims.
func TestHTTPJWTDrivesASessionAsItsSubject(t *testing.T) {
	t.Parallel()
	need(t, "bash")
	is := newIssuer(t)
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	h := startHTTP(t, []string{"--oauth-jwks-url", is.srv.URL + "/jwks", "--oauth-issuer", is.srv.URL,
		"--public-url", jwtAudience, "--audit-log", audit, "--allow-shared-user"})
	token := is.sign("k1", is.claims(jwtAudience, nil))
	for _, era := range []string{modernEra, legacyEra} {
		s := h.connect(t, token, era)
		id := s.bash(nil)
		if r := s.send(id, "echo jwt-$((3*3))", nil); !strings.Contains(r.str("output"), "jwt-9") {
			t.Fatalf("%s: %q", era, r.str("output"))
		}
	}
	h.stop()
	log, _ := os.ReadFile(audit)
	if !strings.Contains(string(log), `"principal":"carol"`) ||
		!strings.Contains(string(log), `"claims":{"iss":"`+is.srv.URL+`","client_id":"agent-app","scopes":["openid","terminal"]}`) {
		t.Fatalf("audit log lacks the principal or claims:\n%s", log)
	}
	if strings.Contains(string(log), token) {
		t.Fatal("the token reached the audit log")
	}
}
