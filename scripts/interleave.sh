# interleave.sh: shared by the scripts that hold iobench against a
# standalone program (runtime-check.sh, hdf5-check.sh); sourced, not run.
# IOR's comparisons have theirs in ior-lib.sh.
#
# interleave_rounds N runs iobench_round and standalone_round, both
# defined by the caller, N times: odd rounds iobench first, even rounds
# the standalone program first, so that neither always follows the other.
interleave_rounds() {
	for r in $(seq "$1"); do
		if [ $((r % 2)) = 1 ]; then
			iobench_round
			standalone_round
		else
			standalone_round
			iobench_round
		fi
	done
}

# awk_median is an awk function, median(key), of the numbers appended to
# vals[key] as a space-separated list; a caller's awk program starts with
# it.
awk_median='
function median(key,   n, i, j, t, v) {
	n = split(vals[key], v, " ")
	for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j-1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}'

# awk_ratio is an awk function, off_ratio(ratio): " !ratio" when ratio is
# outside 0.85-1.15, the band in which the checks take iobench and the
# standalone program to agree, else "".
awk_ratio='
function off_ratio(ratio) { return (ratio < 0.85 || ratio > 1.15) ? " !ratio" : "" }'
