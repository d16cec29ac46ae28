"""The visual kit: theme, base scene, text helpers and shared widgets."""
