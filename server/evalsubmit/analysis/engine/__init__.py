"""The analysis pipeline: text -> parse -> interpret -> rules -> report, the incremental caches
of a document across edits, and findings that one module's submits place in another."""
