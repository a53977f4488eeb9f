-- A service is known by its namespace and its name. The name is chosen by the pods' tenant (a service label, or the
-- model name the engine reports); the namespace is the pod's, written by the cluster. So the same name in another
-- tenant's namespace is another service, and a service selector names its namespace too. The latency, request and
-- engine-gauge minutes have always been stored with their pod's namespace and need nothing.

-- A service selector may now name a namespace: its service's. (With a tenant, a namespace still narrows the tenant's
-- pods to that namespace.)
ALTER TABLE slo_definition DROP CONSTRAINT slo_definition_namespace_of_tenant;

-- Service SLOs stored before: each takes the namespace of the pods that reported its service, where exactly one
-- namespace did. The others keep a null namespace (legacy): such an SLO is evaluated only while a single namespace
-- reports its service in the minutes read, and is asked to name its namespace otherwise.
UPDATE slo_definition d SET namespace = sole.namespace, updated_at = now()
FROM (SELECT service, min(namespace) AS namespace FROM request_minute
      GROUP BY service HAVING count(DISTINCT namespace) = 1) sole
WHERE d.tenant IS NULL AND d.namespace IS NULL AND d.service = sole.service;

-- A jitter event belongs to its SLO's service in one namespace. Events stored before take the namespace of the pods in
-- their evidence where those pods are of one namespace; the others keep a null namespace (legacy), listed only when
-- no namespace is asked for.
ALTER TABLE jitter_event ADD COLUMN namespace text;

UPDATE jitter_event e SET namespace = pods.namespace
FROM (SELECT id, min(pod ->> 'namespace') AS namespace
      FROM jitter_event, jsonb_array_elements(CASE WHEN jsonb_typeof(evidence -> 'pods') = 'array'
                                                   THEN evidence -> 'pods' ELSE '[]'::jsonb END) AS pod
      GROUP BY id HAVING count(DISTINCT pod ->> 'namespace') = 1 AND count(pod ->> 'namespace') = count(*)) pods
WHERE e.id = pods.id;
