package danger

import "regexp"

// Guests through Python's hypervisor clients, judged as virsh, qm and pct
// are (checks_hypervisor.go): libvirt's domain destroyed or undefined, a
// volume deleted or wiped, every domain of a listing destroyed; proxmoxer's
// guest deleted or hard-stopped, a storage's content deleted. A guest named
// as disposable passes; Proxmox's numbers name nothing.

var (
	pyVirtDomain = regexp.MustCompile(`\.\s*(?:lookupByName|lookupByUUIDString)\s*\(\s*\x01(\d+)\x02\s*\)\s*\.\s*(?:destroy|destroyFlags|undefine|undefineFlags|reset)\s*\(`)
	pyVirtVolume = regexp.MustCompile(`\.\s*storageVolLookupByName\s*\(\s*\x01(\d+)\x02\s*\)\s*\.\s*(?:delete|wipe|wipePattern)\s*\(`)
	pyVirtAll    = regexp.MustCompile(`\blistAllDomains\s*\(`)
	pyVirtKill   = regexp.MustCompile(`\.\s*(?:destroy|destroyFlags|undefine|undefineFlags)\s*\(`)
	pyPveGuest   = regexp.MustCompile(`\.\s*(?:qemu|lxc)\s*\([^()]*\)\s*\.\s*(delete|status\s*\.\s*(?:stop|reset)\s*\.\s*(?:post|create))\s*\(`)
	pyPveContent = regexp.MustCompile(`\.\s*storage\s*\([^()]*\)\s*\.\s*content\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*\.\s*delete\s*\(`)
)

func pyGuests(code string, strs []string, _ int) Verdict {
	for _, m := range pyVirtDomain.FindAllStringSubmatch(code, -1) {
		if !disposableGuest(litAt(strs, m[1])) {
			return hit("cluster-teardown")
		}
	}
	for _, m := range pyVirtVolume.FindAllStringSubmatch(code, -1) {
		if !disposableGuest(litAt(strs, m[1])) {
			return hit("storage-teardown")
		}
	}
	if pyVirtAll.MatchString(code) && pyVirtKill.MatchString(code) {
		return hit("shutdown") // every domain the listing returns
	}
	if m := pyPveGuest.FindStringSubmatch(code); m != nil {
		if m[1] == "delete" {
			return hit("cluster-teardown")
		}
		return hit("shutdown")
	}
	return hitIf(pyPveContent.MatchString(code), "backup-delete")
}
