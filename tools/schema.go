package tools

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// MinOutputChars and MaxOutputChars bound max_output_chars, and so the server's
// configured default for it.
const MinOutputChars, MaxOutputChars = 200, 1_000_000

// schemaVars are the configured values that argument tags name in braces, so that a
// description states the default this server really uses.
func (s *Server) schemaVars() *strings.Replacer {
	return strings.NewReplacer(
		"{default_timeout_ms}", strconv.FormatInt(s.cfg.DefaultTimeout.Milliseconds(), 10),
		"{max_timeout_ms}", strconv.FormatInt(s.cfg.MaxTimeout.Milliseconds(), 10),
		"{max_output_chars}", strconv.Itoa(s.cfg.MaxOutput),
		"{min_output_chars}", strconv.Itoa(MinOutputChars),
		"{max_output_limit}", strconv.Itoa(MaxOutputChars),
		"{scrollback_lines}", strconv.Itoa(max(s.sessions.Config().Scrollback, 0)),
	)
}

// schemaTags are the keywords an argument struct's field may set beyond its type
// and description, each as a JSON value.
var schemaTags = []string{"minimum", "maximum", "minLength", "default"}

var unknownVar = regexp.MustCompile(`\{[a-z_]+\}`)

// inputSchema sets the tool's input schema to the one mcp.WithInputSchema derives
// from T, completed with T's schemaTags and with vars in place of their names.
// Optional fields keep their plain type: a null argument counts as not given (see
// validator.check), so the schema need not offer null. It stores the schema as JSON
// (RawInputSchema), properties in name order: mcp-go looks in a tool's input schema
// for x-mcp-header parameters on every call of a client that sends the protocol
// version header, by encoding the schema and decoding it again, and a structured
// schema costs it twice what JSON does (a tenth of the server's time per call
// under the HTTP load benchmark).
//
// T is one of this package's argument structs, so a failure is a bug, found by any
// test that lists the tools: inputSchema panics.
func inputSchema[T any](t *mcp.Tool, vars *strings.Replacer) {
	mcp.WithInputSchema[T]()(t)
	var schema mcp.ToolInputSchema
	if err := json.Unmarshal(t.RawInputSchema, &schema); err != nil {
		panic(fmt.Sprintf("tool %s: no input schema from %T: %v", t.Name, *new(T), err))
	}
	schema.PropertyOrder = nil
	for _, f := range reflect.VisibleFields(reflect.TypeFor[T]()) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		prop, ok := schema.Properties[name].(map[string]any)
		if !ok {
			panic(fmt.Sprintf("tool %s: field %s has no property %q", t.Name, f.Name, name))
		}
		if types, ok := prop["type"].([]any); ok && len(types) == 2 && types[0] == "null" {
			prop["type"] = types[1]
		}
		if d, ok := prop["description"].(string); ok {
			prop["description"] = vars.Replace(d)
		}
		for _, key := range schemaTags {
			v, ok := f.Tag.Lookup(key)
			if !ok {
				continue
			}
			var value any
			if err := json.Unmarshal([]byte(vars.Replace(v)), &value); err != nil {
				panic(fmt.Sprintf("tool %s: field %s: %s tag %q is not a JSON value", t.Name, f.Name, key, v))
			}
			prop[key] = value
		}
		if d, _ := prop["description"].(string); unknownVar.MatchString(d) {
			panic(fmt.Sprintf("tool %s: field %s names an unknown configured value: %q", t.Name, f.Name, d))
		}
	}
	raw, err := json.Marshal(schema)
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", t.Name, err))
	}
	t.InputSchema, t.RawInputSchema = mcp.ToolInputSchema{}, raw
}
