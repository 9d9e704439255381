package danger

import (
	"path"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Virtual machines and containers, judged by the guest's name: powering off,
// undefining, destroying a guest with its disks, deleting its volumes or
// snapshots, and taking down a virtual network. A guest named as disposable
// (a CI runner, a scratch, lab or test machine: nonProdTarget) may go; a
// guest known only by a number (Proxmox's VMIDs) or a computed list is
// judged as the production machine it may be. Covers libvirt (virsh, also
// typed at virsh's own prompt), Proxmox (qm, pct, pvesm, pvesh, pvecm),
// vSphere (govc), Vagrant and Incus/LXC snapshots and volumes, machinectl
// and lxc-destroy.

func init() {
	for name, f := range map[string]func(shell.Command, int) Verdict{
		"virsh": checkVirsh, "qm": checkProxmoxGuest, "pct": checkProxmoxGuest, "pvesm": checkPvesm,
		"pvesh": checkPvesh, "pvecm": checkPvecm, "govc": checkGovc, "lxc-destroy": checkLxcDestroy,
		"machinectl": checkMachinectl, "vagrant": checkVagrantSnapshot, "incus": checkIncusStorage, "lxc": checkIncusStorage,
		"curl": checkProxmoxAPIDelete,
	} {
		addHostCheck(name, f)
	}
}

// guestOperands are a VM tool's operands, with the values of its valued
// options (--pool default, -vm erp-db-01) left out.
func guestOperands(args []shell.Word, valued map[string]bool) []string {
	var ops []string
	for i := 0; i < len(args); i++ {
		a := args[i].S
		if strings.HasPrefix(a, "-") && a != "-" {
			if valued[strings.TrimLeft(a, "-")] && !strings.Contains(a, "=") {
				i++
			}
			continue
		}
		ops = append(ops, a)
	}
	return ops
}

// disposableGuest: a guest, volume or snapshot named as a CI runner's, a
// test's, a lab's or a scratch one (ci-runner-17, lab-ubuntu-24,
// ci-runner-17-overlay.qcow2); a run-time name is not.
func disposableGuest(name string) bool {
	if name == "" || strings.Contains(name, shell.DynMark) {
		return false
	}
	base := path.Base(name)
	return nonProdTarget(strings.TrimSuffix(base, path.Ext(base)))
}

func helpAsked(args []string) bool {
	return contains(args, "--help") || contains(args, "-h") || contains(args, "help")
}

var virshValued = shell.Set("pool", "snapshotname", "name", "file", "mode", "timeout", "c", "connect")

// checkVirsh: destroy (a hard power-off), undefine with its storage,
// vol-delete and vol-wipe, snapshot-delete, pool-delete and pool-destroy of a
// guest or volume not named as disposable; net-destroy and net-undefine
// cut every guest on the network off; a production guest's shutdown or
// reboot ends its service.
func checkVirsh(c shell.Command, _ int) Verdict {
	ops := guestOperands(c.Args[1:], virshValued)
	if len(ops) == 0 || helpAsked(shell.Lits(c.Args[1:])) {
		return Verdict{}
	}
	verb, names := ops[0], ops[1:]
	target := ""
	if len(names) > 0 {
		target = names[0]
	}
	kept := len(names) > 0 && disposableGuest(target) && !c.MoreArgs
	switch verb {
	case "destroy", "reset":
		return hitIf(!kept, "shutdown")
	case "shutdown", "reboot", "suspend", "managedsave":
		return hitIf(productionName(target), "shutdown")
	case "undefine":
		storage := false
		for _, w := range c.Args[1:] {
			storage = storage || strings.HasPrefix(w.S, "--remove-all-storage") || strings.HasPrefix(w.S, "--storage") || w.S == "--wipe-storage"
		}
		return hitIf(storage && !kept, "cluster-teardown")
	case "vol-delete", "vol-wipe":
		pools := optionValues(c.Args[1:], "--pool", "--pool")
		if len(pools) > 0 && disposableGuest(pools[0]) {
			return Verdict{}
		}
		return hitIf(!kept, "storage-teardown")
	case "pool-delete", "pool-destroy", "pool-undefine":
		return hitIf(!kept, "storage-teardown")
	case "snapshot-delete":
		return hitIf(!kept, "backup-delete")
	case "net-destroy", "net-undefine", "iface-destroy", "iface-undefine":
		return hitIf(!kept, "stop-service")
	}
	return Verdict{}
}

// checkProxmoxGuest: qm/pct destroy, stop (a hard power-off) and
// delsnapshot. Proxmox names a guest by its number, so nothing says it is
// disposable.
func checkProxmoxGuest(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	ops := guestOperands(c.Args[1:], nil)
	if len(ops) < 2 || helpAsked(args) {
		return Verdict{}
	}
	switch ops[0] {
	case "destroy":
		return hit("cluster-teardown")
	case "stop", "reset":
		return hit("shutdown")
	case "delsnapshot":
		return hit("backup-delete")
	}
	return Verdict{}
}

// checkPvesm: pvesm free deletes a volume (a guest's disk, a backup).
func checkPvesm(c shell.Command, _ int) Verdict {
	ops := guestOperands(c.Args[1:], nil)
	if len(ops) < 2 || ops[0] != "free" {
		return Verdict{}
	}
	_, vol, _ := strings.Cut(ops[1], ":")
	return hitIf(!disposableGuest(vol), "storage-teardown")
}

// proxmoxGuestPath: an API path of a guest or a volume (/nodes/N/qemu/101,
// /nodes/N/lxc/210, /nodes/N/storage/S/content/V).
func proxmoxGuestPath(p string) bool {
	p = strings.TrimPrefix(strings.SplitN(p, "?", 2)[0], "/api2/json")
	parts := strings.Split(strings.Trim(p, "/"), "/")
	return len(parts) >= 4 && parts[0] == "nodes" && (parts[2] == "qemu" || parts[2] == "lxc") ||
		len(parts) >= 6 && parts[0] == "nodes" && parts[2] == "storage" && parts[4] == "content"
}

// checkPvesh: pvesh delete of a guest or a stored volume.
func checkPvesh(c shell.Command, _ int) Verdict {
	ops := guestOperands(c.Args[1:], nil)
	return hitIf(len(ops) >= 2 && ops[0] == "delete" && proxmoxGuestPath(ops[1]), "cluster-teardown")
}

// checkPvecm: pvecm expected lowers the votes a cluster needs to act, so a
// partitioned node starts guests another node still runs; delnode drops a
// member.
func checkPvecm(c shell.Command, _ int) Verdict {
	ops := guestOperands(c.Args[1:], nil)
	return hitIf(len(ops) >= 2 && (ops[0] == "expected" || ops[0] == "delnode"), "cluster-teardown")
}

var govcValued = shell.Set("vm", "ds", "host", "dc", "u", "pool", "folder", "cluster", "net", "m", "name")

// checkGovc: vm.destroy, vm.power -off/-reset, snapshot.remove and
// datastore.rm of a VM or path not named as disposable; host.service enable
// or start of the ESXi shell or SSH.
func checkGovc(c shell.Command, _ int) Verdict {
	ops := guestOperands(c.Args[1:], govcValued)
	args := shell.Lits(c.Args[1:])
	if len(ops) == 0 || helpAsked(args) {
		return Verdict{}
	}
	vms := optionValues(c.Args[1:], "-vm", "-vm") // snapshot.remove -vm VM NAME
	if len(vms) == 0 {
		vms = ops[1:]
	}
	kept := len(vms) > 0 && !c.MoreArgs
	for _, v := range vms {
		kept = kept && disposableGuest(v)
	}
	switch ops[0] {
	case "vm.destroy":
		return hitIf(!kept, "cluster-teardown")
	case "vm.power":
		return hitIf((contains(args, "-off") || contains(args, "-reset") || contains(args, "-off=true")) && !kept, "shutdown")
	case "snapshot.remove":
		return hitIf(!kept, "backup-delete")
	case "datastore.rm":
		return hitIf(!kept, "storage-teardown")
	case "host.service":
		return hitIf(len(ops) >= 3 && (ops[1] == "enable" || ops[1] == "start") && (ops[2] == "TSM-SSH" || ops[2] == "TSM"), "firewall-open")
	}
	return Verdict{}
}

// checkLxcDestroy: lxc-destroy -n NAME (-s: with its snapshots).
func checkLxcDestroy(c shell.Command, _ int) Verdict {
	names := optionValues(c.Args[1:], "-n", "--name")
	return hitIf(len(names) == 0 || !disposableGuest(names[0]), "cluster-teardown")
}

// checkMachinectl: remove deletes a machine image; poweroff and terminate
// stop a container.
func checkMachinectl(c shell.Command, _ int) Verdict {
	ops := guestOperands(c.Args[1:], nil)
	if len(ops) < 2 {
		return Verdict{}
	}
	kept := allNonProd(ops[1:])
	switch ops[0] {
	case "remove":
		return hitIf(!kept, "cluster-teardown")
	case "poweroff", "terminate", "kill":
		return hitIf(productionName(strings.Join(ops[1:], " ")), "shutdown")
	}
	return Verdict{}
}

func allNonProd(names []string) bool {
	for _, n := range names {
		if !disposableGuest(n) {
			return false
		}
	}
	return len(names) > 0
}

// checkVagrantSnapshot: vagrant snapshot delete of a snapshot not named as
// scratch (a golden or pre-upgrade image is the way back).
func checkVagrantSnapshot(c shell.Command, _ int) Verdict {
	ops := guestOperands(c.Args[1:], nil)
	if len(ops) < 3 || ops[0] != "snapshot" || ops[1] != "delete" {
		return Verdict{}
	}
	return hitIf(!disposableGuest(ops[len(ops)-1]), "backup-delete")
}

// checkIncusStorage: incus storage volume delete of a volume not named as
// disposable; storage delete of a whole pool.
func checkIncusStorage(c shell.Command, _ int) Verdict {
	ops := guestOperands(c.Args[1:], shell.Set("project", "target"))
	if len(ops) < 3 || ops[0] != "storage" {
		return Verdict{}
	}
	switch {
	case ops[1] == "volume" && (ops[2] == "delete" || ops[2] == "rm") && len(ops) >= 5:
		return hitIf(!disposableGuest(ops[4]), "storage-teardown")
	case ops[1] == "delete" || ops[1] == "rm":
		return hitIf(!disposableGuest(ops[2]), "storage-teardown")
	}
	return Verdict{}
}

// virshVerbs: the virsh commands checkVirsh judges; typed at virsh's own
// prompt (an Unknown program) they are judged as virsh's.
var virshVerbs = shell.Set("destroy", "reset", "shutdown", "reboot", "suspend", "managedsave", "undefine", "vol-delete", "vol-wipe",
	"pool-delete", "pool-destroy", "pool-undefine", "snapshot-delete", "net-destroy", "net-undefine", "iface-destroy", "iface-undefine")

func virshPrompt(input string, depth int) Verdict {
	verb, _, _ := strings.Cut(strings.TrimSpace(input), " ")
	if !virshVerbs[verb] || strings.ContainsAny(input, "\n;|&") {
		return Verdict{}
	}
	return classifyShell("virsh "+strings.TrimSpace(input), depth+1)
}

// checkProxmoxAPIDelete: curl -X DELETE of a Proxmox API path of a guest or
// a stored volume (https://pve:8006/api2/json/nodes/N/qemu/101), as pvesh
// delete.
func checkProxmoxAPIDelete(c shell.Command, _ int) Verdict {
	if !curlDeletes(shell.Lits(c.Args[1:])) {
		return Verdict{}
	}
	for _, w := range c.Args[1:] {
		if _, rest, ok := strings.Cut(w.S, ":8006/"); ok && proxmoxGuestPath("/"+rest) {
			return hit("cluster-teardown")
		}
	}
	return Verdict{}
}
