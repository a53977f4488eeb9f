-- Each change of a node names the node's pool at the change's version (the first of the configured pool labels the
-- node carries, else its card model: gpumeter.ledger.fragmentation.pool-labels, as the fragmentation probe names
-- pools); null for a cluster-wide change. The rule and its labels live in the ledger's configuration, not here, so the
-- rows stored before are left null: the book's derivation rules now name the pool labels, so every cluster is derived
-- again from its stored versions at the next start (gpumeter.ledger.changes.derive-history-at-start) and each row
-- replaced with one that names its pool.
ALTER TABLE gov_change ADD COLUMN pool text;
