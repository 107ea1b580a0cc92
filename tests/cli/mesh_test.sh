#!/usr/bin/env bash
# The 2D mesh interconnect end to end (docs/timing_icnt.md): workloads verify on the 001 mesh presets
# (56 cores on 8x8, 110 cores on 11x11) and on the GTX480 with -warpsim_icnt mesh, runs are
# deterministic, and a bad mesh option is a configuration error naming the option.
# Usage: mesh_test.sh WARPSIM_BINARY SOURCE_DIR
. "$(dirname "$0")/testlib.sh"

for run in "bfs dyncta-56core-mesh" "mm dyncta-56core-mesh" "vecadd dyncta-110core-mesh" \
           "kmeans dyncta-110core-mesh"; do
    set -- $run
    expect_rc 0 "$1 tiny on $2" "$W" run "$1" --size tiny --config "$2"
    grep -q "^verify = PASSED" "$tmp/out" && ok || bad "$1 on $2 verifies"
    grep -q "^icnt_req_packets = [1-9]" "$tmp/out" && ok || bad "$1 on $2: requests crossed the mesh"
done

# the GTX480 on a mesh (default 5x5, default placement), twice: identical statistics
expect_rc 0 "bfs tiny on the GTX480 with a mesh" "$W" run bfs --size tiny --set warpsim_icnt=mesh
grep -q "^verify = PASSED" "$tmp/out" && ok || bad "bfs on the GTX480 mesh verifies"
grep -v -E '^(host_seconds|gpgpu_simulation_)' "$tmp/out" >"$tmp/a"
expect_rc 0 "the same run again" "$W" run bfs --size tiny --set warpsim_icnt=mesh
grep -v -E '^(host_seconds|gpgpu_simulation_)' "$tmp/out" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" && ok || bad "mesh runs are deterministic"
# the mesh changes timing, not results: the crossbar run of the same machine differs in cycles
expect_rc 0 "bfs tiny on the GTX480 crossbar" "$W" run bfs --size tiny
a=$(sed -n 's/^gpu_tot_sim_cycle = //p' "$tmp/a" | head -1)
b=$(sed -n 's/^gpu_tot_sim_cycle = //p' "$tmp/out" | head -1)
[ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ] && ok || bad "mesh and crossbar cycles differ ($a vs $b)"

# explicit placement and a partitioned network (3G1C: GPU traffic gets 3 VCs and 24 of 32 bytes)
expect_rc 0 "explicit placement, 3G1C" "$W" run vecadd --size tiny --set warpsim_icnt=mesh \
    --set warpsim_mesh_cols=7 --set warpsim_mesh_rows=3 --set warpsim_mesh_mem_nodes=3,7,10,13,17,20 \
    --set warpsim_mesh_partition=3G1C
grep -q "^verify = PASSED" "$tmp/out" && ok || bad "vecadd with explicit placement and 3G1C verifies"

# configuration errors name the option
expect_rc 2 "unknown interconnect" "$W" run vecadd --size tiny --set warpsim_icnt=torus
expect_err "-warpsim_icnt: unknown interconnect 'torus' (valid: xbar, mesh)" "unknown interconnect"
expect_rc 2 "memory node outside the mesh" "$W" run vecadd --size tiny --set warpsim_icnt=mesh \
    --set warpsim_mesh_mem_nodes=0,1,2,3,4,99
expect_err "-warpsim_mesh_mem_nodes: node 99 is outside the mesh (nodes 0..24)" "node outside the mesh"
expect_rc 2 "too few SM nodes" "$W" run vecadd --size tiny --config dyncta-56core-mesh --set warpsim_mesh_sm_nodes=0-9
expect_err "-warpsim_mesh_sm_nodes: expected 56 nodes, got 10" "too few SM nodes"
expect_rc 2 "partition that does not add up" "$W" run vecadd --size tiny --set warpsim_icnt=mesh \
    --set warpsim_mesh_partition=2G1C
expect_err "-warpsim_mesh_partition 2G1C: 2 + 1 VCs must equal -warpsim_mesh_vcs (4)" "bad partition"
finish
