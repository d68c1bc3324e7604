"""Scaling of the chunked enumerations: 1 and 2 local processes, a 2-worker Dask LocalCluster.

For each game, the wall time of its enumeration (median of --runs) with each executor, and
the cluster path's overhead over local processes.  Also the in-process threaded executor
(OpenMP threads, no processes) for comparison.  Writes benchmarks/results/scaling.json (the
README's scaling table).
Run: python benchmarks/bench_scaling.py [--runs N] [--games casino-holdem,caribbean-stud,baccarat]
"""
import argparse

from _timing import machine, median_seconds, save

from analyzer.core.execution import DaskExecutor, LocalExecutor, SerialExecutor
from analyzer.games import registry
from analyzer.games.baccarat import count as baccarat
from analyzer.games.caribbean_stud import count as caribbean_stud
from analyzer.games.casino_holdem import count as casino_holdem


def workloads():
    _, holdem_rules = registry.game("casino-holdem").load_rules()
    _, stud_rules = registry.game("caribbean-stud").load_rules()
    _, bac_rules = registry.game("baccarat").load_rules()
    return {
        "casino-holdem": lambda ex: casino_holdem.count_situations(holdem_rules, None, ex),
        "caribbean-stud": lambda ex: caribbean_stud.count_classes(stud_rules.cards, stud_rules.qualifier_rank, ex),
        "baccarat": lambda ex: baccarat.count_shoes(baccarat.analysis_shoes(bac_rules), bac_rules, ex),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", default="casino-holdem,caribbean-stud,baccarat")
    args = parser.parse_args()
    from distributed import LocalCluster
    print(machine())
    jobs = workloads()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=40) as cluster:
        dask = DaskExecutor(cluster.scheduler_address)
        executors = {"threads (in process, 2)": SerialExecutor(2), "1 process": LocalExecutor(1),
                     "2 processes": LocalExecutor(2), "dask LocalCluster, 2 workers": dask}
        rows = []
        for game in args.games.split(","):
            times = {name: median_seconds(lambda: jobs[game](ex), args.runs)[0] for name, ex in executors.items()}
            line = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in times.items())
            overhead = times["dask LocalCluster, 2 workers"] - times["2 processes"]
            print(f"{game}: {line}; cluster overhead over local processes {overhead:+.2f} s")
            rows += [{"what": f"{game}: {name}", "seconds": seconds, "target_s": None} for name, seconds in times.items()]
        dask.close()
    save("scaling", args.runs, rows)


if __name__ == "__main__":
    main()
