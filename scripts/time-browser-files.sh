#!/usr/bin/env bash
# Each browser test file alone, one after another: its wall time and the CPU time of everything it
# started (vitest, the replica servers, every Chromium process), counted by a cgroup of its own.
# Linux, as root (cgroup v1 cpuacct or v2). Usage: scripts/time-browser-files.sh [out.tsv] [files…]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-browser-times.tsv}; shift || true
files=("$@"); [ ${#files[@]} -eq 0 ] && files=(tests/browser/*.test.ts)
if [ -d /sys/fs/cgroup/cpuacct ]; then root=/sys/fs/cgroup/cpuacct; usage() { cat "$1/cpuacct.usage"; }   # ns
else root=/sys/fs/cgroup; usage() { echo $(( $(awk '/^usage_usec/ {print $2}' "$1/cpu.stat") * 1000 )); }; fi
printf 'file\twall_s\tcpu_s\tresult\n' > "$out"
for f in "${files[@]}"; do
  cg="$root/mapsweep-$$-$(basename "$f" .test.ts)"
  mkdir "$cg"
  start=$(date +%s.%N)
  bash -c "echo \$\$ > '$cg/cgroup.procs'; exec npx vitest run --project browser '$f'" > "/tmp/$(basename "$f").log" 2>&1
  rc=$?
  end=$(date +%s.%N)
  cpu=$(usage "$cg")
  printf '%s\t%.0f\t%.0f\t%s\n' "$(basename "$f")" "$(echo "$end - $start" | bc)" "$(echo "$cpu / 1000000000" | bc -l)" "$([ $rc = 0 ] && echo passed || echo "failed ($rc)")" | tee -a "$out"
  # Processes left behind (a Chromium helper) keep the group busy: move them out, then remove it.
  for p in $(cat "$cg/cgroup.procs" 2>/dev/null); do echo "$p" > "$root/cgroup.procs" 2>/dev/null; done
  rmdir "$cg" 2>/dev/null || true
done
