"""bench.report: the machine the figures were measured on, as the pages name it."""

from __future__ import annotations

from bench import report
from bench.formatting import GIB

EPYC = {"cpu_model": "AMD EPYC", "cpu_count": 2, "cpus_usable": 2, "memory_bytes": 23.5 * GIB}


def test_the_machine_line_tells_apart_cpus_a_virtual_machine_names_alike():
    zen3 = {**EPYC, "cpu_family": "25", "cpu_model_number": "1", "cache_bytes": {"L2": 512 * 2**10, "L3": 32 * 2**20}}
    zen5 = {**EPYC, "cpu_family": "26", "cpu_model_number": "2", "cache_bytes": {"L2": 2**20, "L3": 32 * 2**20}}
    assert report.describe_machine(zen3) == (
        "AMD EPYC (family 25, model 1; L2 512 KiB a core; L3 32 MiB), 2 cores (2 usable), 23.5 GiB RAM"
    )
    assert report.describe_machine(zen5) != report.describe_machine(zen3)


def test_a_machine_recorded_without_family_or_caches_still_gets_its_line():
    assert report.describe_machine(EPYC) == "AMD EPYC, 2 cores (2 usable), 23.5 GiB RAM"
    unknown_caches = {**EPYC, "cpu_family": "25", "cpu_model_number": "1", "cache_bytes": {"L2": None, "L3": None}}
    assert report.describe_machine(unknown_caches) == "AMD EPYC (family 25, model 1), 2 cores (2 usable), 23.5 GiB RAM"


def test_the_cache_sizes_are_read_from_linux_data_caches_not_instruction_ones(tmp_path, monkeypatch):
    for name, level, kind, size in (("index0", 1, "Data", "32K"), ("index1", 1, "Instruction", "32K"),
                                    ("index2", 2, "Unified", "1024K"), ("index3", 3, "Unified", "32M")):  # fmt: skip
        folder = tmp_path / name
        folder.mkdir()
        for field, value in (("level", level), ("type", kind), ("size", size)):
            (folder / field).write_text(f"{value}\n")
    monkeypatch.setattr(report, "CPU_CACHES", tmp_path)
    assert report.machine()["cache_bytes"] == {"L2": 2**20, "L3": 32 * 2**20}
    monkeypatch.setattr(report, "CPU_CACHES", tmp_path / "absent")
    assert report.machine()["cache_bytes"] == {"L2": None, "L3": None}
