# Benchmark ids (W1, W7b, ...) in the library's comments and docs → the
# benchmark's name in plain words; BENCHMARKS.md and Benchmarks/ keep the ids.
my @map = (
  ['W7bmix-10', 'the ten-level mixed-lifts benchmark'],
  ['W7bcase', 'the event-case lifts benchmark'],
  ['W7b', 'the nested-lifts benchmark'],
  ['W7-10000', 'the children-by-id benchmark at 10,000 children'],
  ['W7', 'the children-by-id benchmark'],
  ['W1mem', 'the in-memory recording benchmark'],
  ['W1file', 'the file recording benchmark'],
  ['W10alt', 'the alternating-reader benchmark'],
  ['W10ref', 'the reference-state reader benchmark'],
  ['W10', 'the sender-with-a-reader benchmark'],
  ['W12scoped', 'the scoped-store benchmark'],
  ['W13', 'the observed-store benchmark'],
  ['W14', 'the many-members store benchmark'],
  ['W1', 'the one-input benchmark'],
  ['W2', 'the ping-pong benchmark'],
  ['W3', 'the hundred-feedbacks benchmark'],
  ['W4', 'the idle-systems benchmark'],
  ['W6', 'the keyed-feedback benchmark'],
  ['W9', 'the many-senders benchmark'],
);
s/\bthe benchmark (W\d+[a-z]*)\b/$1/g;
s/\b(W\d+[a-z]*) and (W\d+[a-z]*) in BENCHMARKS\.md/$1 in BENCHMARKS.md and $2/g;
for my $pair (@map) {
  my ($id, $words) = @$pair;
  s/(?<![\w-])\Q$id\E(?![\w-])('s)?/$words . ($1 ? "'s" : "")/ge;
}
