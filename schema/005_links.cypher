// midas_graph schema version 5. One statement per `;`. See schema/README.md.
// People links (docs/people.md): a name given to an entity by an episode
// ("I'm Jordan", "my wife Sarah", "Nice to meet you, Teo!"), or two entities
// found to be one ("same"), each with the episode it came from. Rows are
// written once and never changed: a link ends by an "unlink" row naming it
// (when the episode that made it is removed), so the transaction-time
// history of who was one with whom is kept.
CREATE NODE TABLE Link(key STRING PRIMARY KEY, group_id STRING, kind STRING, entity_id STRING, target STRING, name STRING, episode_id STRING, reason STRING, recorded_at TIMESTAMP, digest STRING);
