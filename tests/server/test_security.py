"""Every response carries the security headers; text that cannot be stored is refused."""

from __future__ import annotations

import json
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from table.server.edge.text import TextError, check_text

from tests.server.server_helpers import auth


@pytest.mark.parametrize("path", ["/", "/sw.js", "/static/js/main.js", "/static/app.css", "/api/health",
                                  "/api/games/nosuch", "/static/missing.js", "/nowhere"])
def test_every_response_has_the_security_headers(client, path):
    r = client.get(path)
    csp = r.headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self' 'wasm-unsafe-eval'"  # WebAssembly, never eval()
    assert "unsafe-inline" not in csp and "'unsafe-eval'" not in csp
    assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"


def test_errors_and_posts_have_them_too(client):
    r = client.post("/api/games", content=b"{", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.headers["x-content-type-options"] == "nosniff"


def test_the_page_has_no_inline_script_or_style(client):
    html = client.get("/").text
    assert "<script>" not in html and "<style" not in html and " style=" not in html
    assert " on" not in html.replace("\n", " ").split("<body", 1)[1].split(">", 1)[0]


@pytest.mark.parametrize("names, words", [
    (["Ana\u0000", ""], "U+0000"),
    (["\u0007", ""], "U+0007"),
    (["Ion\u009b", ""], "U+009B"),
    (["\ud83d", "x"], "U+D83D, half of a surrogate pair"),
])
def test_names_that_cannot_be_stored_are_refused(client, names, words):
    body = json.dumps({"mode": "local", "names": names})  # ensure_ascii writes the escapes
    r = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and words in r.json()["message"]
    assert len(client.app.state.rooms) == 0


def test_ordinary_text_is_kept(client):
    names = ["Ștefan\tțuică", "Zoë 🎲"]
    r = client.post("/api/games", json={"mode": "local", "names": names})
    assert r.status_code == 201
    g = r.json()
    assert client.get(f"/api/games/{g['game']}", headers=auth(g["token"])).json()["config"]["names"] == names


def test_a_websocket_message_with_a_lone_surrogate_is_refused(client):
    g = client.post("/api/games", json={"mode": "local"}).json()
    with client.websocket_connect(f"/ws/games/{g['game']}") as ws:
        ws.send_text('{"type": "hello", "token": "\\udc00"}')
        e = ws.receive_json()
        assert e["code"] == "bad_request" and "surrogate" in e["message"]


@given(st.text(alphabet=st.characters(codec=None), max_size=20))
def test_text_is_refused_exactly_when_it_has_a_surrogate_or_a_control_character(text):
    bad = any(unicodedata.category(c) == "Cs" or (unicodedata.category(c) == "Cc" and c not in "\t\n\r")
              for c in text)
    try:
        check_text(text)
    except TextError:
        assert bad
    else:
        assert not bad
