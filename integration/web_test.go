package integration

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The live view and take-over, in a real headless Chromium driven by chromedp
// against the built server in stdio mode with --web: what the agent does shows in
// the page; a person signed in with the control token takes the keyboard, types,
// confirms a refused line and gives it back, while the agent's typing is refused.

// webServer is a server with its live view, and what it printed about it.
type webServer struct {
	*server
	base, token, tokenFile, audit string
}

var liveView = regexp.MustCompile(`msg="live view" url=(\S+)/ control_token=(\S+) control_token_file=(\S+)`)

func startWebServer(t testing.TB) *webServer {
	t.Helper()
	dir := t.TempDir()
	w := &webServer{audit: filepath.Join(dir, "audit.jsonl")}
	w.server = startServerTB(t, "MCP_TERMINAL_WEB=127.0.0.1:0", "XDG_RUNTIME_DIR="+dir, "MCP_TERMINAL_AUDIT_LOG="+w.audit)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if m := liveView.FindStringSubmatch(w.stderr.String()); m != nil {
			w.base, w.token, w.tokenFile = m[1], m[2], m[3]
			return w
		}
		if time.Now().After(deadline) {
			t.Fatalf("no live view line on stderr:\n%s", w.stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// browser starts headless Chromium for the test, or skips without one.
func browser(t testing.TB) context.Context {
	t.Helper()
	var path string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		t.Skip("no chromium on PATH (apt-get install chromium)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.WindowSize(900, 560))
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // Chromium refuses to run as root with its sandbox
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil { // starts the browser on the long-lived context
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// run runs browser actions with a deadline.
func run(t testing.TB, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression in the page, with a deadline.
func eval[T any](t testing.TB, ctx context.Context, expr string, opts ...chromedp.EvaluateOption) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// waitJS waits until the expression is true in the page.
func waitJS(expr string) chromedp.Action[chromedp.Void] {
	poll := chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(15*time.Second))
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error { _, err := poll(ctx, t); return err })
}

// press clicks a button of the page. The page follows its output (it scrolls to the
// bottom as frames arrive), so a click at coordinates taken a moment earlier could
// land elsewhere; the button's own click does not move.
func press(id string) chromedp.Action[chromedp.Void] {
	click := chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const b = document.getElementById(%q); if (!b || b.hidden) return false; b.click(); return true; })()`, id))
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if ok, err := click(ctx, t); err != nil || !ok {
			return fmt.Errorf("press %s: the button is not there (%v)", id, err)
		}
		return nil
	})
}

func screenHas(text string) chromedp.Action[chromedp.Void] {
	return waitJS(fmt.Sprintf(`document.getElementById("screen").textContent.includes(%q)`, text))
}

func screenshot(t testing.TB, ctx context.Context, name string) {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	png, err := chromedp.Run(sctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	dir := t.TempDir()
	if keep := os.Getenv("MCPT_SCREENSHOTS"); keep != "" {
		dir = keep // keep them to look at (or to update docs/)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

func post(t *testing.T, u string, form url.Values) *http.Response {
	t.Helper()
	resp, err := http.PostForm(u, form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

func TestWebWatchTakeOverGiveBack(t *testing.T) {
	ctx := browser(t)
	w := startWebServer(t)

	// The control token is in a 0600 file as well as on stderr.
	fi, err := os.Stat(w.tokenFile)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("control token file mode %v, want 0600", fi.Mode().Perm())
	}
	if b, _ := os.ReadFile(w.tokenFile); strings.TrimSpace(string(b)) != w.token {
		t.Errorf("control token file holds %q, stderr said %q", b, w.token)
	}

	work := t.TempDir()
	for _, f := range []string{"a.txt", "b.txt"} {
		if err := os.WriteFile(filepath.Join(work, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	created := w.createResult("bash", map[string]any{"args": []any{"--norc", "--noprofile"}, "cwd": work,
		"env": map[string]any{"PS1": "$ ", "HISTFILE": "/dev/null"}, "cols": 80, "rows": 20})
	id, watch := created.str("session_id"), created.str("watch_url")
	if !strings.HasPrefix(watch, w.base+"/s/"+id+"?view=") {
		t.Fatalf("watch_url %q, want the live view of %s with a view token", watch, id)
	}
	if strings.Contains(watch, w.token) || strings.Contains(created.Text, w.token) {
		t.Fatal("the control token reached the agent")
	}
	if l := w.call("list_sessions", map[string]any{}); !strings.Contains(fmt.Sprint(l.S["sessions"]), watch) {
		t.Errorf("list_sessions does not carry the watch_url: %v", l.S)
	}

	// Watching: what the agent types shows, with its colours and the cursor.
	run(t, ctx, "open watch_url", chromedp.Navigate(watch), waitJS(`document.getElementById("status").textContent.includes("agent has control")`))
	w.send(id, `printf '\e[31mRED\e[0m \e[1;44mBLUE\e[0m plain\n'`, nil)
	run(t, ctx, "agent's output in the page", screenHas("RED BLUE plain"))
	red := eval[string](t, ctx, `(() => { const s = [...document.querySelectorAll("#screen span")].find(e => e.textContent === "RED"); return s ? getComputedStyle(s).color : ""; })()`)
	blue := eval[string](t, ctx, `(() => { const s = [...document.querySelectorAll("#screen span")].find(e => e.textContent === "BLUE"); return s ? getComputedStyle(s).backgroundColor + " " + getComputedStyle(s).fontWeight : ""; })()`)
	cursor := eval[bool](t, ctx, `document.querySelector("#screen .sc") !== null`)
	if red != "rgb(205, 0, 0)" {
		t.Errorf("RED drawn in %q, want rgb(205, 0, 0)", red)
	}
	if blue != "rgb(0, 0, 238) 700" {
		t.Errorf("BLUE drawn as %q, want bold on rgb(0, 0, 238)", blue)
	}
	if !cursor {
		t.Error("no cursor drawn")
	}
	screenshot(t, ctx, "watch.png")

	// Lines scrolled off the 20-row screen are in the page's scrollback, in order.
	w.send(id, "seq 101 160", nil)
	run(t, ctx, "scrolled output", screenHas("160"))
	if sb := eval[string](t, ctx, `[...document.querySelectorAll("#sb .row")].map(r => r.textContent).join(",")`); !strings.Contains(sb, "101,102,103") {
		t.Errorf("scrollback rows: %q, want 101,102,103 among them", sb)
	}

	// The view token cannot take control, and the page offers no button.
	takeButtons := eval[int](t, ctx, `document.querySelectorAll("#take").length`)
	if takeButtons != 0 {
		t.Error("a view-only page offers take control")
	}
	viewTake := strings.Replace(watch, id+"?", id+"/take?", 1)
	if resp := post(t, viewTake, nil); resp.StatusCode != http.StatusForbidden {
		t.Errorf("take control with the view token: %s, want 403", resp.Status)
	}
	if resp := post(t, w.base+"/s/"+id+"/take", nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("take control without credentials: %s, want 404", resp.Status)
	}

	// A wrong token is refused at sign-in.
	run(t, ctx, "wrong token", chromedp.Navigate(w.base+"/"), chromedp.SendKeys(chromedp.CSS("#token"), "not-the-token"),
		chromedp.Click(chromedp.CSS("#signin")), chromedp.WaitVisible(chromedp.CSS("#failed")))
	if resp := post(t, w.base+"/login", url.Values{"token": {"wrong-token-12345"}}); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("sign-in with a wrong token: %s, want 401", resp.Status)
	}

	// Signed in with the control token: the list, then take control.
	run(t, ctx, "sign in", chromedp.Navigate(w.base+"/"), chromedp.SendKeys(chromedp.CSS("#token"), w.token),
		chromedp.Click(chromedp.CSS("#signin")), chromedp.WaitVisible(chromedp.CSS(`#sessions a[href$="`+id+`"]`)))
	run(t, ctx, "control page", chromedp.Navigate(w.base+"/s/"+id), chromedp.WaitVisible(chromedp.CSS("#take")))
	tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	err = chromedp.Do(tctx, press("take"), waitJS(`document.getElementById("status").textContent.includes("you have control")`))
	cancel()
	if err != nil {
		t.Fatalf("take control: %v; the page says %q, %q", err, eval[string](t, ctx, `document.getElementById("status").textContent`),
			eval[string](t, ctx, `document.getElementById("refused").hidden + " " + document.getElementById("refused-text").textContent`))
	}

	// Meanwhile the agent may read, not type or close.
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"send_command", map[string]any{"session_id": id, "input": "echo agent"}},
		{"send_control", map[string]any{"session_id": id, "control": "ctrl+c"}},
		{"close_session", map[string]any{"session_id": id}},
	} {
		r := w.call(c.tool, c.args)
		if !r.IsError || !strings.Contains(r.Text, "a person has control") {
			t.Errorf("%s while a person holds the session: %q, want a tool error saying a person has control", c.tool, r.Text)
		}
	}
	if r := w.call("read_output", map[string]any{"session_id": id}); r.IsError {
		t.Errorf("read_output while a person holds the session: %s", r.Text)
	}

	// The person's keys reach the program.
	run(t, ctx, "type", chromedp.Focus(chromedp.CSS("#term")), chromedp.KeyEvent("echo $((6*7))x\r"), screenHas("42x"))
	r := w.call("read_output", map[string]any{"session_id": id})
	if !strings.Contains(r.Text, "42x") {
		t.Errorf("the agent's read_output does not show what the person typed: %q", r.Text)
	}

	// The danger rules apply to the person's keys: refused, shown, confirmed in the page.
	run(t, ctx, "dangerous line", chromedp.KeyEvent("rm -rf *\r"), chromedp.WaitVisible(chromedp.CSS("#confirm")))
	refusedText := eval[string](t, ctx, `document.getElementById("refused-text").textContent`)
	if !strings.Contains(refusedText, "rm -rf *") || !strings.Contains(refusedText, "rm-recursive-force") {
		t.Errorf("refusal shows %q", refusedText)
	}
	if _, err := os.Stat(filepath.Join(work, "a.txt")); err != nil {
		t.Fatalf("the refused line ran: %v", err)
	}
	screenshot(t, ctx, "refused.png")
	run(t, ctx, "confirm", press("confirm"))
	eventually(t, 10*time.Second, "the confirmed line to run", func() bool {
		_, err := os.Stat(filepath.Join(work, "a.txt"))
		return os.IsNotExist(err)
	})

	// Give back: the agent types again.
	run(t, ctx, "give back", press("give"), waitJS(`document.getElementById("status").textContent.includes("agent has control")`))
	complete(t, w.send(id, "echo back", nil), "")
	run(t, ctx, "agent again", screenHas("back"))

	// The audit log says who typed.
	w.close()
	audit := readAudit(t, w.audit)
	want := map[string]bool{"take_over web": false, "give_back web": false, "input web echo $((6*7))x": false, "confirmed web rm -rf *": false, "input agent echo back": false}
	for _, e := range audit {
		key := strings.TrimSpace(e["event"] + " " + e["actor"] + " " + e["input"])
		if _, ok := want[key]; ok {
			want[key] = true
		}
		if e["event"] == "confirmed" && e["actor"] == "web" && e["confirmed_by"] != "human" {
			t.Errorf("a person's confirmation in the page is logged as confirmed_by %q", e["confirmed_by"])
		}
	}
	for k, seen := range want {
		if !seen {
			t.Errorf("audit log has no %q event:\n%v", k, audit)
		}
	}
}

func readAudit(t *testing.T, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var raw map[string]any
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
			t.Fatalf("audit line %q: %v", sc.Text(), err)
		}
		e := map[string]string{}
		for k, v := range raw {
			if s, ok := v.(string); ok {
				e[k] = s
			}
		}
		out = append(out, e)
	}
	return out
}

// BenchmarkWebViewLatency measures output to page: the session prints its own clock
// (ms), and the page notes when that text appears in its screen.
func BenchmarkWebViewLatency(b *testing.B) {
	ctx := browser(b)
	w := startWebServer(b)
	id := w.createResult("bash", map[string]any{"args": []any{"--norc", "--noprofile"}, "env": map[string]any{"PS1": "$ ", "HISTFILE": "/dev/null"}}).str("session_id")
	run(b, ctx, "open", chromedp.Navigate(w.createWatch(id)), waitJS(`document.getElementById("status").textContent.includes("agent has control")`))
	var total float64
	b.ResetTimer()
	for i := range b.N {
		install := fmt.Sprintf(`window.lat = new Promise(res => { const re = /L%dT(\d{13})X/;
			const o = new MutationObserver(() => { const m = re.exec(document.getElementById("screen").textContent); if (m) { o.disconnect(); res(Date.now() - Number(m[1])); } });
			o.observe(document.getElementById("screen"), {childList: true, subtree: true, characterData: true}); }); true`, i)
		eval[bool](b, ctx, install)
		w.send(id, fmt.Sprintf("echo L%dT$(date +%%s%%3N)X", i), nil)
		total += eval[float64](b, ctx, `window.lat`, chromedp.EvalAwaitPromise)
	}
	b.ReportMetric(total/float64(b.N), "ms/view")
}

// createWatch is the watch_url list_sessions gives for id.
func (w *webServer) createWatch(id string) string {
	l := w.call("list_sessions", map[string]any{})
	sessions, _ := l.S["sessions"].([]any)
	for _, s := range sessions {
		if m, _ := s.(map[string]any); m["session_id"] == id {
			u, _ := m["watch_url"].(string)
			return u
		}
	}
	return ""
}
