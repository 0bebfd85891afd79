"""Game clocks: explicit numbers for each preset and rule, and Hypothesis properties."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from table.server.play.clock import PRESETS, Clock, ClockError, new_clock


@pytest.mark.parametrize(("preset", "length", "delay", "reserve"), [
    ("rapid", 5, 8.0, 100.0),          # 8 s + 20 s a point
    ("normal", 3, 12.0, 180.0),        # 12 s + 1 min a point
    ("tournament", 7, 12.0, 840.0),    # 12 s + 2 min a point
    ("relaxed", 1, 15.0, 180.0),       # 15 s + 3 min a point
    ("normal", 0, 12.0, 60.0),         # money play counts as one point
    ("untimed", 9, 600.0, 0.0),        # ten minutes a decision, nothing more
])
def test_presets(preset, length, delay, reserve):
    c = new_clock(preset, length)
    assert (c.delay, c.reserve, c.running, c.deadline()) == (delay, (reserve, reserve), None, None)
    assert c.claim_only == (preset == "untimed")


def test_the_delay_is_used_first_then_the_reserve():
    c = new_clock("normal", 1).start(0, now=100.0)             # 12 s delay, 60 s reserve
    assert c.remaining(0, now=105.0) == (7.0, 60.0)
    assert c.remaining(0, now=130.0) == (0.0, 42.0)
    assert c.remaining(1, now=130.0) == (12.0, 60.0)
    c = c.stop(now=111.0)                                       # inside the delay: free
    assert c.reserve == (60.0, 60.0)
    c = c.start(1, now=111.0).stop(now=141.0)                   # 30 s: 12 delay + 18 reserve
    assert c.reserve == (60.0, 42.0)
    c = c.start(1, now=200.0)                                   # a fresh delay for the next decision
    assert c.deadline() == 200.0 + 12.0 + 42.0
    assert not c.flagged(now=253.9) and c.flagged(now=254.0)
    assert c.stop(now=300.0).reserve == (60.0, 0.0)             # never below nothing


def test_forced_moves_cost_nothing_and_switch_hands_over():
    c = new_clock("rapid", 1).start(0, now=0.0)
    assert c.stop(now=50.0, charge=False).reserve == (20.0, 20.0)
    c = c.switch(1, now=10.0)                                   # seat 0 used 2 s of reserve
    assert (c.reserve, c.running, c.started) == ((18.0, 20.0), 1, 10.0)
    assert new_clock("rapid", 1).switch(0, now=3.0).running == 0


def test_after_a_stop_of_the_server_the_decision_goes_on_where_it_stood():
    c = new_clock("rapid", 1).start(0, now=0.0).stop(now=18.0).start(1, now=20.0)
    assert c.reserve == (10.0, 20.0)
    r = c.resume(now=500.0, served=25.0)        # served until 25 (5 s into the decision), then down
    assert (r.reserve, r.running) == ((10.0, 20.0), 1)                  # nobody's reserve grows
    assert r.remaining(1, now=500.0) == (3.0, 20.0)                      # 5 s of the 8 s delay stay used
    assert r.deadline() == 500.0 + 3.0 + 20.0
    assert c.resume(now=500.0, served=40.0).remaining(1, now=500.0) == (0.0, 8.0)  # 20 s: 12 s of reserve
    assert c.resume(now=500.0, served=None).remaining(1, now=500.0) == (8.0, 20.0)  # not known: a fresh delay
    assert c.resume(now=500.0, served=10.0).started == 500.0            # served last before it began
    assert c.resume(now=30.0, served=90.0).started == 20.0              # a note from the future counts to now
    assert new_clock("rapid", 1).resume(now=9.0, served=5.0) == new_clock("rapid", 1)  # nothing timing


def test_a_refused_resignation_goes_on_where_the_decision_stood():
    c = new_clock("rapid", 1).start(0, now=0.0)
    offered = c.stop(now=5.0, hold=True)                         # 5 s of the delay used, then the offer
    assert offered.held == (0, 5.0) and offered.running is None
    answering = offered.start(1, now=5.0)
    assert answering.remaining(0, now=9.0) == (3.0, 20.0)        # shown as it stands
    back = answering.stop(now=9.0).carry_on(now=9.0)
    assert back.remaining(0, now=9.0) == (3.0, 20.0) and back.held is None
    assert back.deadline() == 9.0 + 3.0 + 20.0
    late = c.stop(now=12.0, hold=True)                           # past the delay: 4 s of reserve gone
    assert late.reserve == (16.0, 20.0) and late.carry_on(now=50.0).remaining(0, now=50.0) == (0.0, 16.0)
    assert late.drop_held().held is None and late.drop_held().start(0, 50.0).remaining(0, 50.0) == (8.0, 16.0)
    with pytest.raises(ClockError, match="held"):
        c.stop(now=1.0).carry_on(now=2.0)


def test_misuse_is_refused():
    c = new_clock("rapid", 1)
    with pytest.raises(ClockError, match="no decision"):
        c.stop(now=1.0)
    with pytest.raises(ClockError, match="still timing"):
        c.start(0, now=1.0).start(1, now=2.0)
    with pytest.raises(ClockError, match="0 or 1"):
        c.start(2, now=1.0)
    with pytest.raises(ClockError, match="one of rapid"):
        new_clock("blitz", 3)
    with pytest.raises(ClockError, match="whole number"):
        new_clock("rapid", -1)


@pytest.mark.parametrize("bad", [
    None, [], {"preset": "rapid"},
    {"preset": "blitz", "delay": 8, "reserve": [1, 1], "running": None, "started": 0},
    {"preset": "rapid", "delay": 8, "reserve": [1], "running": None, "started": 0},
    {"preset": "rapid", "delay": 8, "reserve": [1, -1], "running": None, "started": 0},
    {"preset": "rapid", "delay": "8", "reserve": [1, 1], "running": None, "started": 0},
    {"preset": "rapid", "delay": 8, "reserve": [1, float("nan")], "running": None, "started": 0},
    {"preset": "rapid", "delay": 8, "reserve": [1, 1], "running": 2, "started": 0},
    {"preset": "rapid", "delay": 8, "reserve": [1, 1], "running": True, "started": 0},
    {"preset": "rapid", "delay": 8, "reserve": [1, 1], "running": 0.0, "started": 0},
    {"preset": "rapid", "delay": 8, "reserve": [1, 1], "running": None, "started": 0, "x": 1},
    {"preset": "rapid", "delay": 8, "reserve": [1, 1], "running": None, "started": 0, "held": [2, 1.0]},
    {"preset": "rapid", "delay": 8, "reserve": [1, 1], "running": None, "started": 0, "held": [0, -1.0]},
    {"preset": "rapid", "delay": 8, "reserve": [1, 1], "running": None, "started": 0, "held": 0},
])
def test_bad_saved_clocks_are_refused(bad):
    with pytest.raises(ClockError):
        Clock.from_json(bad)


# Times in 1/64 s steps, so sums and differences are exact in binary floating point.
times = st.integers(min_value=0, max_value=10**7).map(lambda k: k / 64)
clocks = st.builds(
    lambda preset, length, r0, r1: Clock(preset, PRESETS[preset].delay, (r0, r1)),
    st.sampled_from(sorted(PRESETS)), st.integers(0, 25), times, times)


@given(clocks, st.integers(0, 1), times, times)
def test_charge_is_the_time_beyond_the_delay_up_to_the_reserve(clock, seat, start, elapsed):
    after = clock.start(seat, start).stop(start + elapsed)
    assert clock.reserve[seat] - after.reserve[seat] == min(max(0.0, elapsed - clock.delay), clock.reserve[seat])
    assert after.reserve[1 - seat] == clock.reserve[1 - seat] and after.reserve[seat] >= 0


@given(clocks, st.integers(0, 1), times, times)
def test_the_deadline_is_when_the_clock_flags(clock, seat, start, elapsed):
    running = clock.start(seat, start)
    now = start + elapsed
    deadline = running.deadline()
    assert running.flagged(now) == (now >= deadline)
    # Stopping by the deadline leaves some reserve (if there was any); at or after it, none.
    assert (running.stop(now).reserve[seat] == 0) == (now >= deadline or clock.reserve[seat] == 0)


@given(clocks, st.lists(st.tuples(st.sampled_from(["switch", "stop", "free", "hold", "resume"]),
                                  st.integers(0, 1), times, times), max_size=12))
def test_reserves_never_grow_and_a_stop_of_the_server_costs_and_gives_nothing(clock, steps):
    now = 0.0
    for op, seat, wait, down in steps:
        now += wait
        before = clock.reserve
        if op == "switch":
            clock = clock.switch(seat, now)
        elif clock.running is not None and op in ("stop", "free"):
            clock = clock.stop(now, charge=op == "stop")
        elif clock.running is not None and op == "hold":
            mover, stood = clock.running, clock.remaining(clock.running, now)
            clock = clock.stop(now, hold=True).carry_on(now + down)  # refused after ``down``
            assert clock.remaining(mover, now + down) == stood  # it goes on where it stood
            now += down
        elif op == "resume" and clock.running is not None:
            # Served until ``now``, then down for ``down`` seconds: the decision stands as it stood.
            resumed = clock.resume(now + down, served=now)
            assert resumed.reserve == clock.reserve
            assert resumed.remaining(clock.running, now + down) == clock.remaining(clock.running, now)
            assert resumed.deadline() == clock.deadline() + down
            clock, now = resumed, now + down
        assert clock.reserve[0] <= before[0] and clock.reserve[1] <= before[1]
        assert min(clock.reserve) >= 0


@given(clocks, st.one_of(st.none(), st.tuples(st.integers(0, 1), times)), st.booleans())
def test_json_round_trip(clock, running, hold):
    if running is not None:
        clock = clock.start(*running)
        if hold:
            clock = clock.stop(running[1] + 3.5, hold=True)
    assert Clock.from_json(json.loads(json.dumps(clock.to_json()))) == clock
