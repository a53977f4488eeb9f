-- The idle split's day books (DayBooks, kind 'idle-parts') read, beside the segments and usage rollups V40 marks, the
-- host's minutes and hours (the causes of not-busy time) and the bindings that name a MIG unit's instance: their
-- writes record the days they touched too.
CALL ledger.book_triggers('host_container_minute', 'book_minute_days');
CALL ledger.book_triggers('host_node_minute', 'book_minute_days');
CALL ledger.book_triggers('host_container_hour', 'book_hour_days');
CALL ledger.book_triggers('host_node_hour', 'book_hour_days');

-- A MIG unit's instance is the one its pod's newest binding on the card names (IdleRepository), whatever the day: a
-- binding that names an instance, added or removed, or a binding's newness changing
-- between two that name different instances, touches every day of that pod's segments on the card.
CREATE FUNCTION ledger.book_binding_days() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ledger.book_change (days)
    SELECT unnest(range_agg(daterange((s.seg_start AT TIME ZONE 'UTC')::date, (s.seg_end AT TIME ZONE 'UTC')::date, '[]')))
    FROM (SELECT DISTINCT c.cluster, c.namespace, c.pod, c.gpu_uuid FROM changed_rows c
          WHERE c.scope_key <> ''
            AND (TG_OP <> 'UPDATE' OR EXISTS (SELECT 1 FROM ledger.gpu_binding o
                                            WHERE o.cluster = c.cluster AND o.namespace = c.namespace AND o.pod = c.pod
                                              AND o.gpu_uuid = c.gpu_uuid AND o.scope_key NOT IN ('', c.scope_key)))) b
    JOIN ledger.allocation_segment s ON s.namespace = b.namespace AND s.pod = b.pod AND s.cluster = b.cluster
                                    AND s.gpu_uuid = b.gpu_uuid;
    RETURN NULL;
END $$;

CREATE TRIGGER book_inserted AFTER INSERT ON ledger.gpu_binding
    REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger.book_binding_days();
CREATE TRIGGER book_updated AFTER UPDATE ON ledger.gpu_binding
    REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger.book_binding_days();
CREATE TRIGGER book_deleted AFTER DELETE ON ledger.gpu_binding
    REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger.book_binding_days();
