"""CPython's error runs (``inspector.core.units.errorruns``) against the reference cut,
and the three paths that use them (the scanner's sparse windows, the small-file count,
the repair) on the same bytes."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.core.units import kinds as K
from inspector.core.units.decoder import cut
from inspector.core.units.errorruns import error_runs

INTERESTING = [0x0A, 0x41, 0x80, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xE2, 0xED, 0xF0, 0xF4,
               0xF5, 0xF8, 0xFC, 0xFE, 0xFF]
data_strategy = st.one_of(
    st.binary(max_size=80),
    st.lists(st.sampled_from(INTERESTING), max_size=60).map(bytes),
    st.lists(st.sampled_from(["é", "€", "😀", "a", "\xc0\xaf", "\x80", "\xed\xa0\x80"]),
             max_size=30).map(lambda parts: b"".join(
                 p.encode("latin-1") if p.startswith(("\xc0", "\x80", "\xed")) else p.encode()
                 for p in parts)),
)
RUNS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def reference_runs(data: bytes) -> list[int]:
    """The error units of the utf-8 dialect, joined where they touch."""
    runs: list[int] = []
    for u in cut(data):
        if u.is_error:
            if runs and runs[-1] == u.offset:
                runs[-1] = u.end
            else:
                runs += [u.offset, u.end]
    return runs


@RUNS
@given(data_strategy)
def test_runs_are_the_error_units_and_text_the_valid_characters(data):
    runs, text = error_runs(data)
    assert runs == reference_runs(data)
    assert text == "".join(chr(u.value) for u in cut(data) if u.is_valid)


@RUNS
@given(data_strategy, st.integers(0, 8))
def test_more_subparts_than_the_limit_give_none(data, limit):
    subparts = data.decode("utf-8", "replace").count("\ufffd") - \
        data.decode("utf-8", "ignore").count("\ufffd")
    found = error_runs(data, limit)
    assert (found is None) == (subparts > limit)
    if found is not None:
        assert found[0] == reference_runs(data)


@RUNS
@given(data_strategy)
def test_the_three_callers_agree(data):
    from inspector.core.analysis.repair import problem_runs
    from inspector.core.scan.kernels import rows as row_kernel
    from inspector.core.scan.cleantext import text_counts

    runs = reference_runs(data)
    assert problem_runs(data) == list(zip(runs[0::2], runs[1::2]))
    errors = [u for u in cut(data) if u.is_error]
    # The scanner's sparse path: every error unit, from the runs.
    window = row_kernel.analyse(data, 0, len(data), True, K.UTF8, want_warnings=False,
                             dense_limit=10**6) if data else None
    if window is not None:
        assert window.mode in ("clean", "sparse")
        rows = window.rows
        got = sorted(zip(rows.offset.tolist(), rows.length.tolist()))
        assert got == [(u.offset, u.length) for u in errors]
    # The small-file count takes the runs only when few and the text has no warning.
    counts = text_counts(data)
    if counts is not None:
        assert counts.errors == errors
