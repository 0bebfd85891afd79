// Fair dice for games on this device (table.rules.dice is the reference).

// Fair dice from random bytes: a byte is kept only below 252 (42 x 6), so every face is equally
// likely (no modulo bias).  `fill` fills a Uint8Array with random bytes.
export function diceFrom(fill) {
  const b = new Uint8Array(1);
  return {
    rollDie() {
      for (;;) {
        fill(b);
        if (b[0] < 252) return (b[0] % 6) + 1;
      }
    },
  };
}

// The dice of offline games: the browser's cryptographic generator.
export const secretDice = diceFrom((a) => crypto.getRandomValues(a));
