package danger

import (
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// checkCommand judges one simple command by the program that really runs.
func checkCommand(c shell.Command, depth int) Verdict {
	if strings.Contains(c.Name, shell.DynMark) {
		return checkDynamicName(c, depth)
	}
	if strings.HasPrefix(c.Args[0].S, "/etc/init.d/") || strings.HasPrefix(c.Args[0].S, "/etc/rc.d/") {
		return checkService(c, depth)
	}
	if v := checkHost(c, depth); v.Dangerous {
		return v
	}
	if v := checkFSCommand(c, depth); v.Dangerous {
		return v
	}
	if f := commandCheck(c.Name); f != nil {
		return f(c, depth)
	}
	return Verdict{}
}

// commandChecks maps a program's basename to its check. Programs not listed
// here are looked up by family in interpreterCheck (mkfs.*, shells, Python...).
// It is filled in init because checks such as find -exec call checkCommand.
var commandChecks map[string]func(shell.Command, int) Verdict

func init() {
	commandChecks = map[string]func(shell.Command, int) Verdict{
		"rm": checkRm, "unlink": checkUnlink, "find": checkFind, "shred": checkShred, "rsync": checkRsync,
		"mke2fs": checkMkfs, "mkswap": checkMkfs, "wipefs": checkMkfs, "mkntfs": checkMkfs,
		"fdisk": checkPartition, "sfdisk": checkPartition, "gdisk": checkPartition, "cfdisk": checkPartition,
		"parted": checkPartition, "sgdisk": checkPartition, "blkdiscard": checkPartition,
		"dd": checkDd, "tee": checkTee, "sed": checkSed, "cp": checkCopy, "mv": checkCopy, "install": checkCopy, "ln": checkCopy,
		"truncate": checkTruncate, "chmod": checkChmod, "chown": checkChown, "chgrp": checkChown,
		"shutdown": checkShutdown, "reboot": checkShutdown, "halt": checkShutdown, "poweroff": checkShutdown,
		"init": checkInit, "telinit": checkInit, "systemctl": checkSystemctl, "service": checkService, "rc-service": checkService,
		"ip": checkNetDown, "ifdown": checkNetDown, "ifconfig": checkNetDown, "nmcli": checkNetDown,
		"kill": checkKill, "pkill": checkPkill, "killall": checkPkill, "killall5": checkPkill,
		"git": checkGit, "terraform": checkTerraform, "tofu": checkTerraform, "terragrunt": checkTerraform,
		"pulumi": checkTerraform, "cdk": checkTerraform, "kubectl": checkKubectl, "oc": checkKubectl,
		"docker": checkDocker, "podman": checkDocker, "docker-compose": checkDocker,
		"aws": checkCloud, "gcloud": checkCloud, "az": checkCloud, "gsutil": checkCloud, "doctl": checkCloud,
		"heroku": checkCloud, "redis-cli": checkRedisCLI, "valkey-cli": checkRedisCLI, "keydb-cli": checkRedisCLI,
		"dropdb": checkDropdb, "mysqladmin": checkDropdb, "mongo": checkMongo, "mongosh": checkMongo,
		"pg_restore": checkPgRestore, "tar": checkTar, "bsdtar": checkTar, "unzip": checkUnzip, "cpio": checkCpio,
		"alias": checkAlias, "trap": checkTrap,
	}
}

func commandCheck(name string) func(shell.Command, int) Verdict {
	if f, ok := commandChecks[name]; ok {
		return f
	}
	return interpreterCheck(name)
}

// dynamicRules are the rules a command whose name is computed at run time is
// checked against: "$X -rf /" is judged as if $X were rm.
var dynamicRules = map[string]string{
	"rm": "rm-recursive-force", "chmod": "chmod-recursive-777", "chown": "chmod-chown-system",
	"dd": "dd-device", "find": "find-delete", "kill": "kill-all",
}

func checkDynamicName(c shell.Command, depth int) Verdict {
	if len(c.Args) > 1 && wrappedProgram(c.Args[1]) {
		// $SUDO rm -rf /, ${DBG} /sbin/e2fsck -f DEV: the variable is a
		// prefix (sudo, echo, a dry-run switch); the program is the next word.
		return checkCommand(shell.Unwrap(c.Args[1:]), depth)
	}
	for _, name := range []string{"rm", "chmod", "chown", "dd", "find", "kill"} {
		c.Name = name
		v := commandCheck(name)(c, depth)
		if v.Dangerous && (v.Rule == dynamicRules[name] || v.Rule == "chmod-chown-system") {
			v.Why = strings.TrimSuffix(v.Why, ".") + " (the program name is computed at run time and was judged as " + name + ")."
			return v
		}
	}
	return Verdict{}
}

// checkAlias judges the command an alias would run: alias ll='rm -rf ~'.
func checkAlias(c shell.Command, depth int) Verdict {
	for _, w := range c.Args[1:] {
		if _, body, ok := strings.Cut(w.S, "="); ok {
			if v := classifyShell(shell.ForParser(body, Shell), depth+1); v.Dangerous {
				return via(v, "an alias")
			}
		}
	}
	return Verdict{}
}

// checkTrap judges the command a trap would run: trap 'rm -rf /' EXIT.
func checkTrap(c shell.Command, depth int) Verdict {
	if len(c.Args) < 3 || strings.HasPrefix(c.Args[1].S, "-") {
		return Verdict{}
	}
	return via(classifyShell(shell.ForParser(c.Args[1].S, Shell), depth+1), "a trap")
}
