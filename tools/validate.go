package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// typedTool joins a tool to the handler of its argument struct T: the tool's input
// schema is derived from T, each call's arguments are checked against that schema
// and then bound to T, and a call that does not fit is answered with a tool error
// that says which argument is wrong, what it must be, and to call again.
//
// The check is the one server.WithInputSchemaValidation makes (the same schema, the
// same validator), done here because mcp-go v1.2.1 words its failures as Go values,
// such as "/timeout_ms: &{Got:-5/1 Want:1/1}", where a model needs "timeout_ms must
// be an integer from 1 to 600000, got -5". Doing it here also means the handlers can
// rely on it however the server around them is built.
func typedTool[T any](vars *strings.Replacer, tool mcp.Tool, h mcp.TypedToolHandlerFunc[T]) server.ServerTool {
	inputSchema[T](&tool, vars)
	v := newValidator(tool)
	bind := mcp.NewTypedToolHandler(h)
	return server.ServerTool{Tool: tool, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, err := v.check(req.GetRawArguments())
		if err != nil {
			return toolError("%s: %v. Correct the arguments and call %s again.", tool.Name, err, tool.Name), nil
		}
		req.Params.Arguments, req.Params.RawArguments = args, nil
		return bind(ctx, req)
	}}
}

// validator checks arguments against one tool's published input schema.
type validator struct {
	tool   string
	schema *jsonschema.Schema
}

func newValidator(tool mcp.Tool) *validator {
	value, err := jsonschema.UnmarshalJSON(bytes.NewReader(tool.RawInputSchema)) // see inputSchema
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", tool.Name, err))
	}
	url := "mem:///tools/" + tool.Name + ".json"
	c := jsonschema.NewCompiler()
	if err := c.AddResource(url, value); err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", tool.Name, err))
	}
	schema, err := c.Compile(url)
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", tool.Name, err))
	}
	return &validator{tool: tool.Name, schema: schema}
}

// check returns the arguments as decoded JSON, without those given as null: a null
// argument counts as not given, as clients that fill every optional field with null
// expect.
func (v *validator) check(raw any) (map[string]any, error) {
	data, ok := raw.(json.RawMessage)
	if !ok {
		var err error
		if data, err = json.Marshal(raw); err != nil {
			return nil, fmt.Errorf("the arguments are not JSON: %v", err)
		}
	}
	var value any
	if len(bytes.TrimSpace(data)) > 0 {
		if err := json.Unmarshal(data, &value); err != nil {
			return nil, fmt.Errorf("the arguments are not JSON: %v", err)
		}
	}
	if value == nil {
		value = map[string]any{}
	}
	args, ok := value.(map[string]any)
	if !ok {
		return nil, errors.New("the arguments must be a JSON object of named arguments")
	}
	maps.DeleteFunc(args, func(_ string, v any) bool { return v == nil })
	if err := v.schema.Validate(args); err != nil {
		return nil, v.explain(err, args)
	}
	return args, nil
}

// explain words each violation as the argument it concerns and what that argument
// must be, one sentence per argument.
func (v *validator) explain(err error, args map[string]any) error {
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return err
	}
	var missing, unknown []string
	wrong := map[string]string{} // by argument name: what it must be
	for _, e := range leaves(verr) {
		switch k := e.ErrorKind.(type) {
		case *kind.Required:
			for _, name := range k.Missing {
				missing = append(missing, fmt.Sprintf("missing required argument %q", name))
			}
		case *kind.AdditionalProperties:
			for _, name := range k.Properties {
				unknown = append(unknown, fmt.Sprintf("unknown argument %q (%s)", name, v.takes()))
			}
		default:
			name, s := v.locate(e.InstanceLocation)
			wrong[name] = fmt.Sprintf("%s must be %s, got %s", name, expected(s), show(valueAt(args, e.InstanceLocation)))
		}
	}
	slices.Sort(missing)
	slices.Sort(unknown)
	msgs := append(missing, unknown...)
	for _, name := range slices.Sorted(maps.Keys(wrong)) {
		msgs = append(msgs, wrong[name])
	}
	return errors.New(strings.Join(msgs, "; "))
}

// leaves are the violations themselves; the errors above them only group them.
func leaves(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return []*jsonschema.ValidationError{e}
	}
	var out []*jsonschema.ValidationError
	for _, c := range e.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

func (v *validator) takes() string {
	if len(v.schema.Properties) == 0 {
		return v.tool + " takes no arguments"
	}
	return v.tool + " takes " + strings.Join(slices.Sorted(maps.Keys(v.schema.Properties)), ", ")
}

// locate names the value at path as an agent would write it (args[1], env["HOME"])
// and finds its schema. The root is "the arguments".
func (v *validator) locate(path []string) (string, *jsonschema.Schema) {
	name, s := "the arguments", v.schema
	for i, seg := range path {
		var next *jsonschema.Schema
		switch items := itemsOf(s); {
		case i == 0:
			name, next = seg, s.Properties[seg]
		case items != nil:
			name, next = name+"["+seg+"]", items
		default:
			name = fmt.Sprintf("%s[%q]", name, seg)
			next, _ = s.AdditionalProperties.(*jsonschema.Schema)
		}
		if next == nil {
			return name, nil
		}
		s = next
	}
	return name, s
}

func itemsOf(s *jsonschema.Schema) *jsonschema.Schema {
	if s.Items2020 != nil {
		return s.Items2020
	}
	items, _ := s.Items.(*jsonschema.Schema)
	return items
}

// expected says what a value of schema s must be.
func expected(s *jsonschema.Schema) string {
	if s == nil || s.Types == nil {
		return "as the tool's input schema says"
	}
	types := s.Types.ToStrings()
	switch {
	case slices.Contains(types, "integer"):
		if s.Minimum != nil && s.Maximum != nil {
			return fmt.Sprintf("an integer from %s to %s", s.Minimum.RatString(), s.Maximum.RatString())
		}
		return "an integer"
	case slices.Contains(types, "string"):
		if s.MinLength != nil {
			return fmt.Sprintf("a string of at least %d characters", *s.MinLength)
		}
		return "a string"
	case slices.Contains(types, "boolean"):
		return "true or false"
	case slices.Contains(types, "array"):
		return "an array of " + plural(itemsOf(s))
	case slices.Contains(types, "object"):
		values, _ := s.AdditionalProperties.(*jsonschema.Schema)
		return "an object whose values are " + plural(values)
	}
	return strings.Join(types, " or ")
}

func plural(s *jsonschema.Schema) string {
	if s != nil && s.Types != nil && slices.Equal(s.Types.ToStrings(), []string{"string"}) {
		return "strings"
	}
	return "values as the tool's input schema says"
}

func valueAt(v any, path []string) any {
	for _, seg := range path {
		switch c := v.(type) {
		case map[string]any:
			v = c[seg]
		case []any:
			var i int
			if _, err := fmt.Sscan(seg, &i); err != nil || i < 0 || i >= len(c) {
				return nil
			}
			v = c[i]
		default:
			return nil
		}
	}
	return v
}

// show renders a value as the JSON the agent sent, shortened.
func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	const most = 40
	if s := []rune(string(b)); len(s) > most {
		return string(s[:most]) + "…"
	}
	return string(b)
}
