"""Whatever a client sends, the server answers with a clear refusal or a legal change."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.server_helpers import auth

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-30, 30) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
kinds = st.sampled_from(["move", "roll", "double", "take", "drop", "resign", "accept_resignation",
                         "reject_resignation", "next_game", "fly", ""])
actions = st.one_of(
    json_values,
    st.fixed_dictionaries({"type": kinds}, optional={"steps": json_values, "level": json_values,
                                                     "dice": json_values}),
    st.fixed_dictionaries({"type": st.just("move"), "steps": st.lists(
        st.lists(st.integers(-2, 27), min_size=0, max_size=3), max_size=5)}),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(action=actions)
def test_any_action_is_answered_cleanly(client, action):
    r = client.post("/api/games", json={"mode": "local", "length": 3})
    g = r.json()
    before = client.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json()
    r = client.post(f"/api/games/{g['game']}/actions", json={"version": before["version"], "action": action},
                    headers=auth(g["token"]))
    assert r.status_code in (200, 400, 409, 422), r.text
    after = client.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json()
    if r.status_code == 200:
        assert after["version"] > before["version"]
    else:
        body = r.json()
        assert body["type"] == "error" and body["message"]
        assert after == before
