-- SLOs may select a tenant's pods (optionally one service and/or namespace of it) instead of one service's.
ALTER TABLE slo_definition ALTER COLUMN service DROP NOT NULL;
ALTER TABLE slo_definition ADD COLUMN tenant text;
ALTER TABLE slo_definition ADD COLUMN namespace text;
ALTER TABLE slo_definition ADD CONSTRAINT slo_definition_selects CHECK (service IS NOT NULL OR tenant IS NOT NULL);
ALTER TABLE slo_definition ADD CONSTRAINT slo_definition_namespace_of_tenant CHECK (namespace IS NULL OR tenant IS NOT NULL);
CREATE INDEX slo_definition_by_tenant ON slo_definition (tenant);

-- A tenant selector spans services: its pods' minutes are found by time, then read by pod.
CREATE INDEX request_minute_by_minute ON request_minute (minute);
CREATE INDEX latency_minute_by_pod ON latency_minute (namespace, pod, minute);
