// midas_graph schema version 3. One statement per `;`. See schema/README.md.
// The vectors of an episode's sentences, base64 of concatenated float32 rows
// (empty when it has fewer than two sentences; null on rows written before
// version 3, which recall embeds and stores on its first index build).
ALTER TABLE Episode ADD sentence_embeddings STRING;
