# Declarative protocols State/Event -> StateProtocol/EventProtocol.
s/\bFeedbackLoopDeclarative\.State\b/FeedbackLoopDeclarative.StateProtocol/g;
s/\bFeedbackLoopDeclarative\.Event\b/FeedbackLoopDeclarative.EventProtocol/g;
s/\bany State\b(?!\.)/any StateProtocol/g;
s/\bany Event\b(?!\.)/any EventProtocol/g;
# Conformances of non-generic types: `struct VolumeState: State {`, `enum AnyEvent: Event {}`.
if (/^(\s*(?:(?:public|private|fileprivate|internal|final|indirect|package)\s+)*(?:struct|enum|class|extension|actor)\s+[\w.]+\s*:)((?:(?!\bwhere\b)[^{])*)/) {
  my ($head, $clause) = ($1, $2);
  my $new = $clause;
  $new =~ s/\bState\b(?!\s*[.=<])/StateProtocol/g;
  $new =~ s/\bEvent\b(?!\s*[.=<])/EventProtocol/g;
  s/\Q$head$clause\E/$head$new/ if $new ne $clause;
}
s/``State``/``StateProtocol``/g;
s/``Event``/``EventProtocol``/g;
s/^public protocol State: Sendable/public protocol StateProtocol: Sendable/;
s/^public protocol Event: Sendable/public protocol EventProtocol: Sendable/;
