"""Unit tests of the Python package python/warpsim on small generated result files (a run with its time
series, per-warp file and configuration; a sweep CSV; a study directory).  Run by tests/python/run.sh
(ctest python_unit) with Debian's /usr/bin/python3; skipped when pandas or matplotlib is missing."""

import math
import os
import re
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import warpsim  # noqa: E402
from warpsim import compare, data, report  # noqa: E402

# what `warpsim run -o` writes, cut down; nan and inf as C's printf writes them
RUN_JSON = """{
  "warpsim_version": "0.1",
  "command": "warpsim run vecadd --size tiny -o %(name)s.json --warps %(name)s.warps.csv",
  "workload": "vecadd", "size": "tiny", "seed": 1, "input": null, "mode": "timing",
  "config": "gtx480 (built-in defaults)", "warp_sched": "%(ws)s",
  "status": "WS_SUCCESS", "verified": true, "max_abs_err": 0,
  "stats": {"kernels_launched": 1, "gpu_sim_insn": 1000, "gpu_sim_cycle": %(cycles)d,
            "warp_insn_by_class": {"int": 10}},
  "kernels": [{"name": "vecadd", "launches": 1, "gpu_sim_insn": 1000}],
  "timing": {
    "kernels": [{"grid": "4,1,1", "kernel_name": "vecadd", "gpu_sim_cycle": %(cycles)d, "gpu_ipc": %(ipc)s,
                 "per_partition": {"requests": [5, 5, 30, 0], "hottest_over_mean": 3.0}}],
    "totals": {"kernels": 1, "gpu_sim_cycle": %(cycles)d, "gpu_ipc": %(ipc)s, "weird": nan, "big": -inf,
               "L1D_total_cache_miss_rate": 0.25, "lat_rt_avg": 210.5, "lat_rt_hist_bucket_cycles": 50,
               "lat_rt_hist": [0, 3, 10, 4, 1, 0, 0], "RACT": [0.5, 0.25],
               "stall_breakdown": {"scheduling": 100, "data_cache_miss": 40, "fetch": 0},
               "per_partition": {"requests": [10, 10, 40, 10], "icnt_req_lat_avg": [8, 9, 120.5, 8],
                                 "hottest_over_mean_per_launch": 3.0},
               "type_hint": "Type-M"}
  },
  "host": {"seconds": 0.5}
}
"""

TS_HEAD = ("kernel_id,kernel,cycle,interval_cycles,ipc,warp_ipc,l1d_miss_rate,l2_miss_rate,dram_bw_util,"
           "sm0_ctas,sm0_warps,sm1_ctas,sm1_warps,sm0_n,sm0_paused,sm1_n,sm1_paused\n")

CONFIG = """# warpsim run ...
-gpgpu_n_clusters                   15
-gpgpu_scheduler                    %(ws)s
-warpsim_cta_scheduler              rr
-gpgpu_cache:dl1                    32:128:4,L:L:m:N:H,A:32:8,8   # a comment
%(extra)s"""


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def write_run(d, name, ws="lrr", cycles=1000, ipc="1.5", extra=""):
    p = os.path.join(d, name)
    with open(p + ".json", "w") as f:
        f.write(RUN_JSON % {"name": name, "ws": ws, "cycles": cycles, "ipc": ipc})
    with open(p + ".timeseries.csv", "w") as f:
        f.write(TS_HEAD)
        for i in range(1, 6):
            f.write("1,vecadd,%d,200,%.2f,0.1,0.3,0.1,0.05,2,8,1,4,%d,0,2,0\n" % (200 * i, 1.0 + i / 10, 2 + i % 2))
    with open(p + ".warps.csv", "w") as f:
        f.write("kernel_id,kernel,sm,cta,warp,start,end,cycles,insns\n")
        for cta in range(3):
            for w in range(4):
                f.write("1,vecadd,0,%d,%d,0,%d,0,10\n" % (cta, w, 100 + 10 * w + cta))
    with open(p + ".config", "w") as f:
        f.write(CONFIG % {"ws": ws, "extra": extra})
    return p + ".json"


class RunTest(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.d)

    def test_load_run(self):
        r = warpsim.load(write_run(self.d, "a"))
        self.assertEqual(r.meta["workload"], "vecadd")
        self.assertEqual(r.totals["gpu_sim_cycle"], 1000)
        self.assertTrue(math.isnan(r.totals["weird"]))
        self.assertEqual(r.totals["big"], -math.inf)
        self.assertEqual(r.totals["stall_breakdown.scheduling"], 100)
        self.assertEqual(list(r.totals["lat_rt_hist"]), [0, 3, 10, 4, 1, 0, 0])
        self.assertEqual(len(r.kernels), 1)
        self.assertEqual(r.kernels.loc[0, "kernel_name"], "vecadd")
        self.assertEqual(r.timeseries.shape, (5, 17))
        self.assertEqual(len(r.warps), 12)
        self.assertEqual(r.config["gpgpu_cache:dl1"], "32:128:4,L:L:m:N:H,A:32:8,8")
        self.assertEqual(r.stat("gpu_ipc"), 1.5)
        self.assertIn("vecadd", repr(r))
        self.assertEqual(set(r.frames()), {"totals", "kernels", "timeseries", "warps"})

    def test_run_without_side_files(self):
        p = write_run(self.d, "b")
        for s in (".timeseries.csv", ".warps.csv", ".config"):
            os.remove(p[:-5] + s)
        r = warpsim.load(p)
        self.assertIsNone(r.timeseries)
        self.assertIsNone(r.warps)
        self.assertIsNone(r.config)

    def test_read_json_nonfinite_inside_strings_kept(self):
        p = os.path.join(self.d, "s.json")
        with open(p, "w") as f:
            f.write('{"a": "nan inf", "b": nan, "c": [inf, -nan]}')
        d = data.read_json(p)
        self.assertEqual(d["a"], "nan inf")
        self.assertTrue(math.isnan(d["b"]))
        self.assertEqual(d["c"][0], math.inf)

    def test_run_figures_have_data(self):
        from warpsim import plots
        r = warpsim.load(write_run(self.d, "c"))
        names = [n for n, _ in plots.run_figures(r)]
        for want in ("ts_ipc", "ts_occupancy", "ts_miss_rates", "ts_dram", "ts_policy", "stall_breakdown",
                     "lat_rt_hist", "partitions", "warp_spread"):
            self.assertIn(want, names)
        # the hottest slice is named with its share: 40 against a mean of 17.5
        fig = dict(plots.run_figures(r))["partitions"]
        self.assertIn("slice 2 takes 2.29x the mean", fig._suptitle.get_text())
        self.assertIn("at most 3.00x (launch 1, vecadd)", fig._suptitle.get_text())

    def test_report_page(self):
        p = write_run(self.d, "d")
        out = warpsim.write_report(p)
        self.assertTrue(out.endswith("d.report.html"))
        page = read(out)
        external = re.findall(r'(?:src|href)="(?!#)[^"]*"|url\((?!#)[^)]*\)|@import', page)
        self.assertEqual(external, [], "the page loads nothing from outside")
        nsvg = page.count("<svg")
        self.assertGreaterEqual(nsvg, 8)
        self.assertEqual(page.count('<figure class="plot"'), nsvg)
        # ids are unique across the figures
        ids = re.findall(r'\bid="([^"]+)"', page)
        self.assertEqual(len(ids), len(set(ids)))
        self.assertEqual(len(re.findall(r'id="fig\d+-wsdata', page)) > 0, True)
        self.assertIn("core cycle", page)   # axes carry units

    def test_compare(self):
        a = warpsim.load(write_run(self.d, "a", "lrr", 1000, "1.5"))
        b = warpsim.load(write_run(self.d, "b", "gto", 800, "1.875", "-warp_sched.gto.x 3\n"))
        stats, cfg, pol = compare.compare([a, b])
        row = stats[stats["statistic"] == "gpu_sim_cycle"].iloc[0]
        self.assertEqual(row["abs diff"], -200)
        self.assertAlmostEqual(row["rel diff"], -0.2)
        self.assertAlmostEqual(row["speedup"], 1.25)
        self.assertNotIn("seconds", " ".join(stats["statistic"]))
        self.assertEqual(list(pol["option"]), ["gpgpu_scheduler", "warp_sched.gto.x"])
        self.assertTrue(cfg.empty)
        txt = compare.text([a, b], stats, cfg, pol)
        self.assertIn("gpgpu_scheduler", txt)
        out = os.path.join(self.d, "cmp.html")
        self.assertEqual(compare.main([a.path, b.path, "--html", out]), 0)
        self.assertIn("<svg", read(out))


SWEEP_CSV = """name,workload,size,config,warp_sched,cta_sched,seed,state,exit_code,status,verified,type_hint,gpu_sim_cycle,gpu_ipc,result
vecadd_tiny_w-lrr,vecadd,tiny,,lrr,,1,ran,0,WS_SUCCESS,1,Type-X,100,2.0,s/vecadd_tiny_w-lrr.json
vecadd_tiny_w-gto,vecadd,tiny,,gto,,1,ran,0,WS_SUCCESS,1,Type-X,80,2.5,s/vecadd_tiny_w-gto.json
bfs_tiny_w-lrr,bfs,tiny,,lrr,,1,ran,0,WS_SUCCESS,1,Type-X,200,1.0,s/bfs_tiny_w-lrr.json
bfs_tiny_w-gto,bfs,tiny,,gto,,1,ran,0,WS_SUCCESS,1,Type-X,250,0.8,s/bfs_tiny_w-gto.json
"""

STUDY_TXT = """
==== study dyncta: seed 001 (Kayiran et al., PACT'13) Fig. 1, 9, 10, 11 ====
config dyncta-30core, size tiny; baseline: CTA scheduler rr with the maximum CTAs per core (N), warp scheduler lrr.
IPC = thread instructions per core cycle, normalised to the baseline.

Normalised IPC
...
[agrees    ] DYNCTA improves IPC over the baseline
             paper: 1.28x mean
             here:  DYNCTA: 1.05x mean
[cannot tell] DYNCTA comes close to opt
             paper: 28%
             here:  n/a
"""

DYNCTA_IPC = """workload,type,N,n=1,n=2,opt,TL,DYNCTA,DYNCTA+TL
kmeans,Type-M,2,1.10,1.00,1.10,0.98,1.05,1.02
vecadd,Type-X,2,0.95,1.00,1.00,fail,1.00,n/a
AMEAN,,,1.02,1.00,1.05,0.98,1.02,1.02
GMEAN,,,1.02,1.00,1.05,0.98,1.02,1.02
"""

DYNCTA_METRICS = """workload,N,opt,DYNCTA avg n,lat_rt base,lat_rt DYN/base,util DYN/base,RACT base,RACT DYN,L1D base,L1D opt,L1D DYN
kmeans,2,1,1.40,400,0.90,1.00,0.1,0.1,0.60,0.55,0.57
vecadd,2,2,1.90,2000,1.00,1.00,0.04,0.04,1.00,1.00,1.00
AMEAN,2,1.5,1.65,1200,0.95,1.00,0.07,0.07,0.80,0.78,0.79
"""


class SweepStudyTest(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.d)

    def test_sweep(self):
        sd = os.path.join(self.d, "sweep-x")
        os.makedirs(sd)
        with open(os.path.join(sd, "x.csv"), "w") as f:
            f.write(SWEEP_CSV)
        write_run(sd, "vecadd_tiny_w-lrr")
        s = warpsim.load_sweep(sd)
        self.assertEqual(len(s.runs), 4)
        self.assertEqual(s.configurations(), ["warp_sched"])
        self.assertEqual(s.run("vecadd_tiny_w-lrr").meta["workload"], "vecadd")
        from warpsim import plots
        fig, tab = plots.sweep_bars(s, "gpu_ipc", "lrr")
        self.assertIsNotNone(fig)
        self.assertAlmostEqual(tab.loc["vecadd", "gto"], 1.25)
        self.assertAlmostEqual(tab.loc["bfs", "gto"], 0.8)
        self.assertAlmostEqual(tab.loc["GMEAN", "gto"], 1.0)
        with self.assertRaises(KeyError):
            plots.sweep_bars(s, "gpu_ipc", "nosuch")
        self.assertEqual(data.kind_of(sd), "sweep")
        out = os.path.join(self.d, "s.html")
        self.assertEqual(report.main([sd, "--baseline", "lrr", "-o", out]), 0)
        self.assertIn("normalised to lrr", read(out))

    def test_study(self):
        sd = os.path.join(self.d, "study-dyncta")
        os.makedirs(os.path.join(sd, "runs"))
        for name, text in (("dyncta.txt", STUDY_TXT), ("dyncta_ipc.csv", DYNCTA_IPC),
                           ("dyncta_metrics.csv", DYNCTA_METRICS)):
            with open(os.path.join(sd, name), "w") as f:
                f.write(text)
        st = warpsim.load_study(sd)
        self.assertEqual(st.name, "dyncta")
        self.assertEqual(set(st.tables), {"dyncta_ipc", "dyncta_metrics"})
        ipc = st.tables["dyncta_ipc"]
        self.assertTrue(math.isnan(ipc.loc[1, "TL"]))          # "fail"
        self.assertAlmostEqual(ipc.loc[0, "DYNCTA"], 1.05)
        self.assertEqual(list(st.checks["verdict"]), ["agrees", "cannot tell"])
        self.assertEqual(st.checks.loc[0, "paper"], "1.28x mean")
        self.assertEqual(st.checks.loc[0, "here"], "DYNCTA: 1.05x mean")
        self.assertEqual(len(st.setup), 2)
        self.assertTrue(st.setup[0].startswith("config dyncta-30core, size tiny;"))
        self.assertEqual(data.parse_setup("Normalised IPC\nkmeans 1.0\n"), [])   # no title: no setup
        from warpsim import plots
        caps = [c for c, _ in plots.study_figures(st)]
        self.assertTrue(any("Fig. 1:" in c for c in caps))
        self.assertTrue(any("Fig. 9" in c for c in caps))
        self.assertTrue(any("Fig. 10" in c for c in caps))
        self.assertTrue(any("Fig. 11" in c for c in caps))
        self.assertEqual(data.kind_of(sd), "study")
        self.assertEqual(report.main([sd]), 0)
        page = read(os.path.join(sd, "report.html"))
        self.assertIn("seed reports", page)
        self.assertIn("1.28x mean", page)
        self.assertIn("config dyncta-30core, size tiny", page)

    def test_bad_path(self):
        self.assertEqual(report.main([os.path.join(self.d, "nothing.txt")]), 2)


class ImportTest(unittest.TestCase):
    """`import warpsim` from the source tree's root (its warpsim.py), and Debian's packages for another
    interpreter of the same Python version (warpsim._debian_dist_packages)."""

    ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))

    def setUp(self):
        self.d = tempfile.mkdtemp(prefix="warpsim-import-")

    def tearDown(self):
        shutil.rmtree(self.d)

    def python_at_root(self, code, pythonpath=None):
        import subprocess
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", MPLBACKEND="Agg")
        env.pop("PYTHONPATH", None)
        if pythonpath:
            env["PYTHONPATH"] = pythonpath
        return subprocess.run([sys.executable, "-c", code], cwd=self.ROOT, env=env, capture_output=True, text=True,
                              timeout=120)

    def test_import_from_root(self):
        r = self.python_at_root("import sys, warpsim; from warpsim import plots, report; "
                                "print(warpsim.__file__); print(sys.modules['warpsim'] is warpsim); "
                                "print(hasattr(warpsim, 'load'))")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.split()
        self.assertEqual(os.path.realpath(lines[0]),
                         os.path.realpath(os.path.join(self.ROOT, "python", "warpsim", "__init__.py")))
        self.assertEqual(lines[1:], ["True", "True"])

    def test_import_from_root_honours_pythonpath(self):
        other = os.path.join(self.d, "pp")
        shutil.copytree(os.path.join(self.ROOT, "python", "warpsim"), os.path.join(other, "warpsim"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        r = self.python_at_root("import warpsim; print(warpsim.__file__)", pythonpath=other)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(os.path.realpath(r.stdout.strip()),
                         os.path.realpath(os.path.join(other, "warpsim", "__init__.py")))

    def fake_dist_packages(self, suffix):
        libs = os.path.join(self.d, "dist-packages", "pandas", "_libs")
        os.makedirs(libs)
        open(os.path.join(libs, "lib" + suffix), "w").close()
        return os.path.join(self.d, "dist-packages")

    def test_debian_dist_packages_same_version(self):
        import importlib.machinery
        own = [s for s in importlib.machinery.EXTENSION_SUFFIXES if s.startswith(".cpython-")]
        if not own:
            self.skipTest("no version-tagged extension suffix")
        path = self.fake_dist_packages(own[0])
        self.assertEqual(warpsim._debian_dist_packages(path), path)
        sys.path.append(path)
        try:
            self.assertIsNone(warpsim._debian_dist_packages(path))   # already on the path
        finally:
            sys.path.remove(path)

    def test_debian_dist_packages_other_version(self):
        path = self.fake_dist_packages(".cpython-27-x86_64-linux-gnu.so")
        self.assertIsNone(warpsim._debian_dist_packages(path))
        self.assertIsNone(warpsim._debian_dist_packages(os.path.join(self.d, "nothing")))


if __name__ == "__main__":
    unittest.main()
