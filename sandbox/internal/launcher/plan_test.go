package launcher

import (
	"reflect"
	"strings"
	"testing"
)

func TestPlanRoundTrip(t *testing.T) {
	for _, p := range []Plan{
		{},
		{ABI: 7, FS: 1<<16 - 1, Net: 3, Scoped: 3, Terminal: FSReadFile | FSWriteFile | FSIoctlDev,
			TmpParent: "/work/a b", BestEffort: true, Seclude: true, HideProcs: true,
			Rules: []Rule{{FSReadFile, "/usr"}, {FSExecute, "/odd: 12 path\nwith newline"}, {FSReadDir, ""}}},
		{ABI: 1, FS: FSReadFile | FSExecute, Rules: []Rule{{FSReadFile, "/"}}},
	} {
		enc := p.Encode()
		got, err := Decode(enc)
		if err != nil {
			t.Fatalf("Decode(%q): %v", enc, err)
		}
		if len(p.Rules) == 0 {
			p.Rules = []Rule{} // Decode always makes the slice
		}
		if !reflect.DeepEqual(got, p) {
			t.Errorf("round trip of %q:\ngot  %+v\nwant %+v", enc, got, p)
		}
	}
}

func TestDecodeRefuses(t *testing.T) {
	good := (&Plan{ABI: 7, FS: 4, TmpParent: "/t", Rules: []Rule{{4, "/usr"}}}).Encode()
	for _, bad := range []string{
		"",
		"{}",               // the JSON rulesets of earlier builds
		"L2" + good[2:],    // another version
		good[:len(good)-1], // a path cut short
		good + " ",         // trailing bytes
		good + "x",         //
		strings.Replace(good, " 1 4 4:/usr", " 9 4 4:/usr", 1), // more rules than written
		strings.Replace(good, "L1 7", "L1 -7", 1),
		strings.Replace(good, " 0 2:/t", " 8 2:/t", 1), // unknown flags
		"L1 0 0 0 0 0 0 99999999999999999999: 0",
	} {
		if p, err := Decode(bad); err == nil {
			t.Errorf("Decode(%q) = %+v, want an error", bad, p)
		}
	}
}

func TestKnownGrowsWithTheABI(t *testing.T) {
	var fs0, net0, sc0 uint64
	for abi := 0; abi <= 8; abi++ {
		fs, net, sc := Known(abi)
		if fs&fs0 != fs0 || net&net0 != net0 || sc&sc0 != sc0 {
			t.Errorf("ABI %d knows less than ABI %d", abi, abi-1)
		}
		fs0, net0, sc0 = fs, net, sc
	}
	for _, c := range []struct {
		abi  int
		bit  uint64
		what string
	}{{2, FSRefer, "refer"}, {3, FSTruncate, "truncate"}, {5, FSIoctlDev, "ioctl"}} {
		if fs, _, _ := Known(c.abi - 1); fs&c.bit != 0 {
			t.Errorf("ABI %d knows %s", c.abi-1, c.what)
		}
		if fs, _, _ := Known(c.abi); fs&c.bit == 0 {
			t.Errorf("ABI %d does not know %s", c.abi, c.what)
		}
	}
	if _, net, _ := Known(3); net != 0 {
		t.Error("ABI 3 knows TCP")
	}
	if _, _, sc := Known(5); sc != 0 {
		t.Error("ABI 5 knows scopes")
	}
}

// FuzzDecode: whatever a plan argument holds, Decode does not panic, and what it
// accepts survives another round trip.
func FuzzDecode(f *testing.F) {
	f.Add((&Plan{ABI: 7, FS: 7, Rules: []Rule{{4, "/usr"}}, TmpParent: "/tmp"}).Encode())
	f.Add("L1 0 0 0 0 0 0 0: 0")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Decode(s)
		if err != nil {
			return
		}
		q, err := Decode(p.Encode())
		if err != nil || !reflect.DeepEqual(p, q) {
			t.Fatalf("%q decoded to %+v, which re-decodes to %+v (%v)", s, p, q, err)
		}
	})
}

// TestDecodeRefusesOutOfRange: numbers that do not fit their field are refused,
// not wrapped (an ABI of 2^64-1 is not -1).
func TestDecodeRefusesOutOfRange(t *testing.T) {
	for _, bad := range []string{
		"L1 18446744073709551615 0 0 0 0 0 0: 0",
		"L1 9223372036854775808 1 0 0 0 0 0: 0",
	} {
		if p, err := Decode(bad); err == nil {
			t.Errorf("Decode(%q) = %+v, want an error", bad, p)
		}
	}
}
