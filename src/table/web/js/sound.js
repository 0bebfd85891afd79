// Optional sounds, made on the spot with WebAudio (no audio files): dice, a move, a hit.
// Off unless the player turns them on in the settings.

let on = false;
let ctx = null;

export function enable(yes) { on = !!yes; }

function audio() {
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
  }
  if (ctx.state === "suspended") ctx.resume();
  return ctx;
}

// One short click: a noise burst through a band-pass filter, fading out fast.
function click(a, at, freq, length, gain) {
  const n = Math.floor(a.sampleRate * length);
  const buf = a.createBuffer(1, n, a.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < n; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / n) ** 3;
  const src = a.createBufferSource();
  src.buffer = buf;
  const filter = a.createBiquadFilter();
  filter.type = "bandpass"; filter.frequency.value = freq; filter.Q.value = 1.2;
  const g = a.createGain();
  g.gain.value = gain;
  src.connect(filter).connect(g).connect(a.destination);
  src.start(at);
}

export function play(kind) {
  if (!on) return;
  const a = audio();
  if (!a) return;
  const now = a.currentTime;
  if (kind === "dice") {
    // A few knocks of two dice tumbling.
    for (let i = 0; i < 5; i++) click(a, now + i * 0.055 + Math.random() * 0.02, 2200 + Math.random() * 1500, 0.04, 0.5);
  } else if (kind === "move") {
    click(a, now, 1400, 0.06, 0.8);
  } else if (kind === "hit") {
    click(a, now, 500, 0.12, 1.2);
    click(a, now + 0.07, 900, 0.08, 0.7);
  }
}
