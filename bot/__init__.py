"""GPU Advisor's bot layer: text in, a sized and explained answer out, in Slack or a terminal.

A question travels through the rooms in order:
- `bot.understand` — text → `Question` (Slack markup, names, slots, intent, FAQ match, language, follow-ups);
- `bot.reply` — `Question` → `Answer` → words (the one `answer()` pipeline, its decisions, rendering);
- `bot.slack` and `bot.console` — the front ends, thin adapters over `bot.service.Advisor` and the renderer.
What every room shares stays here: the advisor service, the state store, the front ends' ports, the errors.
"""
