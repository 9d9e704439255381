package danger

import "testing"

func TestContextOf(t *testing.T) {
	t.Parallel()
	tests := map[string]Context{
		"bash": Shell, "zsh": Shell, "sh": Shell, "dash": Shell, "fish": Shell, "ksh": Shell, "-bash": Shell,
		"/bin/bash": Shell, "psql": SQL, "mysql": SQL, "mariadb": SQL, "sqlite3": SQL,
		"python": Python, "python3": Python, "python3.11": Python, "python3.12": Python, "ipython": Python,
		"node": Node, "vim": Editor, "nvim": Editor, "irb": Ruby, "gdb": Debugger, "less": Pager, "mongosh": Mongo, "mongo": Mongo, "redis-cli": Redis, "valkey-cli": Redis,
		"cqlsh": SQL, "clickhouse-client": SQL, "influx": SQL, "etcdctl": Unknown, "": Unknown,
	}
	for prog, want := range tests {
		if got := ContextOf(prog); got != want {
			t.Errorf("ContextOf(%q) = %v, want %v", prog, got, want)
		}
	}
}
