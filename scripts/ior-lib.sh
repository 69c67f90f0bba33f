# ior-lib.sh: shared by the scripts that hold iobench against IOR
# (ior-compare.sh, runtime-ior-compare.sh); sourced by bash, not run.

# mpi_launch NP sets the array launch to the mpirun command of NP ranks;
# under Open MPI oversubscribed, unbound, allowed to run as root, and
# without vader's single-copy mechanism unless the environment names one.
mpi_launch() {
	launch=(mpirun -np "$1")
	if mpirun --version 2>&1 | grep -q 'Open MPI'; then
		launch+=(--oversubscribe --bind-to none)
		[ "$(id -u)" = 0 ] && launch+=(--allow-run-as-root)
		export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
	fi
}

# ior_write_mibs reads IOR's output and prints its write bandwidth, MiB/s.
ior_write_mibs() { awk '$1 == "write" && $2 ~ /^[0-9.]+$/ { print $2; exit }'; }

# median prints the median of the numbers it reads, one a line.
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# compare_runs reads the arrays iors and iobs, IOR's and iobench's MiB/s
# (iobs[i] the run just after iors[i]), and sets mi and mb, their medians;
# ratio, mb / mi to two places; pair, pair_min and pair_max, the median,
# least and greatest of iobs[i] / iors[i].
compare_runs() {
	local pairs
	mi=$(printf '%s\n' "${iors[@]}" | median)
	mb=$(printf '%s\n' "${iobs[@]}" | median)
	ratio=$(awk -v a="$mb" -v b="$mi" 'BEGIN { printf "%.2f", a / b }')
	pairs=$(for i in "${!iors[@]}"; do awk -v a="${iobs[$i]}" -v b="${iors[$i]}" 'BEGIN { print a / b }'; done | sort -g)
	pair=$(median <<<"$pairs")
	pair_min=$(head -1 <<<"$pairs")
	pair_max=$(tail -1 <<<"$pairs")
}
