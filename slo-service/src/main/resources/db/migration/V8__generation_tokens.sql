-- vLLM's generation-token counter (vllm:generation_tokens_total, cumulative per pod) per service, pod and minute: the
-- minute's first and last readings with their instants, kept on write, so the tokens generated between any two
-- readings (a counter that went down was restarted: its new value is what it counted since) and over any window
-- are known. A minute may now hold only counter readings.
ALTER TABLE engine_gauge_minute
    ADD COLUMN tokens_first    double precision CHECK (tokens_first >= 0),
    ADD COLUMN tokens_first_at timestamptz,
    ADD COLUMN tokens_last     double precision CHECK (tokens_last >= 0),
    ADD COLUMN tokens_last_at  timestamptz;

ALTER TABLE engine_gauge_minute DROP CONSTRAINT engine_gauge_minute_check;
ALTER TABLE engine_gauge_minute ADD CONSTRAINT engine_gauge_minute_readings
    CHECK (kv_samples + prefix_samples > 0 OR tokens_last_at IS NOT NULL);
