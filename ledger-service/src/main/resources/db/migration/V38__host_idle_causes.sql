-- Why a pod's card waited, per span of its host rows (a minute, or an hour past the minute retention): the host's
-- causes of idle work in the vocabulary of common's FailureCause, decided in this order (ADR 22):
--   cpu-saturated  a cgroup of the pod (a container, or the pod's own, container '') used CPU at cpu_limit_share of
--                  its limit or more, or was throttled by CFS in cfs_throttled_share of its periods or more;
--   io-wait        the node's I/O pressure (PSI "full": no task could run for I/O) took io_pressure_share of the
--                  span or more, or the pod's disk (its containers' reads and writes, or its own cgroup's when that
--                  says more) moved disk_bytes_per_second or more;
--   network        the pod's network (its sandbox's bytes in and out) reached network_share of its node's own
--                  devices' and at least network_min_bytes_per_second, the node's devices having carried traffic. A
--                  pod on the host's network reports the node's interfaces as its own: a pod whose bytes are within
--                  host_network_tolerance of its node's tells nothing by its share, and is network-bound only when
--                  the node dropped host_network_drops_per_second packets or more;
--   NULL           none of these, or no host row to tell.
-- A rate is an amount over the row's covered seconds; a row that covers none of its span (one scrape) or a quantity
-- not reported is no evidence either way. `pod_reported` and `node_reported` say whether the pod's cgroups and its
-- node had a row covering some of the span. The pods are (p_clusters, p_namespaces, p_pods, p_nodes) side by side,
-- each with the node it ran on ('' when unknown: its node's rows are then not read); a pod's rows are read on that
-- node only, so a name used again on another node is another pod. Spans overlapping [w_start, w_end).
CREATE FUNCTION ledger.host_idle_causes(
    p_clusters text[], p_namespaces text[], p_pods text[], p_nodes text[], w_start timestamptz, w_end timestamptz,
    cpu_limit_share double precision, cfs_throttled_share double precision, io_pressure_share double precision,
    disk_bytes_per_second double precision, network_share double precision,
    network_min_bytes_per_second double precision, host_network_tolerance double precision,
    host_network_drops_per_second double precision)
    RETURNS TABLE (cluster text, namespace text, pod text, node text, at timestamptz, span interval,
                   pod_reported boolean, node_reported boolean, cpu_saturated boolean, io_wait boolean,
                   network boolean, cause text)
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$
WITH p AS (
    SELECT DISTINCT k.cluster, k.namespace, k.pod, k.node
    FROM unnest(p_clusters, p_namespaces, p_pods, p_nodes) AS k(cluster, namespace, pod, node)),
cg AS (
    SELECT p.cluster, p.namespace, p.pod, p.node, h.container, h.at, h.span, h.cpu_seconds, h.cfs_periods,
           h.cfs_throttled_periods, h.cpu_limit_cores, h.fs_read_bytes, h.fs_write_bytes, h.net_receive_bytes,
           h.net_transmit_bytes, h.covered_ms / 1000.0::float8 AS sec
    FROM p JOIN ledger.host_container_rollup h
      ON h.cluster = p.cluster AND h.namespace = p.namespace AND h.pod = p.pod AND (p.node = '' OR h.node = p.node)
    WHERE h.at >= date_trunc('hour', w_start) AND h.at < w_end AND h.at + h.span > w_start AND h.covered_ms > 0),
pm AS (
    SELECT cg.cluster, cg.namespace, cg.pod, cg.node, cg.at, cg.span,
           coalesce(bool_or(cg.cpu_limit_cores > 0 AND cg.cpu_seconds / cg.sec >= cpu_limit_share * cg.cpu_limit_cores
                            OR cg.cfs_periods > 0 AND cg.cfs_throttled_periods / cg.cfs_periods >= cfs_throttled_share),
                    false) AS cpu,
           greatest(sum((coalesce(cg.fs_read_bytes, 0) + coalesce(cg.fs_write_bytes, 0)) / cg.sec)
                        FILTER (WHERE cg.container <> '' AND num_nonnulls(cg.fs_read_bytes, cg.fs_write_bytes) > 0),
                    max((coalesce(cg.fs_read_bytes, 0) + coalesce(cg.fs_write_bytes, 0)) / cg.sec)
                        FILTER (WHERE cg.container = '' AND num_nonnulls(cg.fs_read_bytes, cg.fs_write_bytes) > 0))
               AS disk_rate,
           max((coalesce(cg.net_receive_bytes, 0) + coalesce(cg.net_transmit_bytes, 0)) / cg.sec)
               FILTER (WHERE cg.container = '' AND num_nonnulls(cg.net_receive_bytes, cg.net_transmit_bytes) > 0)
               AS net_rate
    FROM cg GROUP BY cg.cluster, cg.namespace, cg.pod, cg.node, cg.at, cg.span),
nm AS (
    SELECT n.cluster, n.node, h.at, h.span,
           h.io_pressure_stalled_seconds / (h.covered_ms / 1000.0::float8) AS io_share,
           CASE WHEN num_nonnulls(h.net_receive_bytes, h.net_transmit_bytes) > 0
                THEN (coalesce(h.net_receive_bytes, 0) + coalesce(h.net_transmit_bytes, 0)) / (h.covered_ms / 1000.0::float8)
                END AS net_rate,
           CASE WHEN num_nonnulls(h.net_receive_drops, h.net_transmit_drops) > 0
                THEN (coalesce(h.net_receive_drops, 0) + coalesce(h.net_transmit_drops, 0)) / (h.covered_ms / 1000.0::float8)
                END AS drop_rate
    FROM (SELECT DISTINCT p.cluster, p.node FROM p WHERE p.node <> '') n
    JOIN ledger.host_node_rollup h ON h.cluster = n.cluster AND h.node = n.node
    WHERE h.at >= date_trunc('hour', w_start) AND h.at < w_end AND h.at + h.span > w_start AND h.covered_ms > 0),
spans AS (
    SELECT pm.cluster, pm.namespace, pm.pod, pm.node, pm.at, pm.span FROM pm
    UNION
    SELECT p.cluster, p.namespace, p.pod, p.node, nm.at, nm.span
    FROM p JOIN nm ON nm.cluster = p.cluster AND nm.node = p.node),
judged AS (
    SELECT s.*, pm.at IS NOT NULL AS pod_reported, nm.at IS NOT NULL AS node_reported,
           coalesce(pm.cpu, false) AS cpu_saturated,
           coalesce(nm.io_share >= io_pressure_share, false) OR coalesce(pm.disk_rate >= disk_bytes_per_second, false)
               AS io_wait,
           CASE WHEN nm.net_rate > 0 AND abs(pm.net_rate - nm.net_rate) <= host_network_tolerance * nm.net_rate
                THEN coalesce(nm.drop_rate >= host_network_drops_per_second, false)
                ELSE coalesce(nm.net_rate > 0 AND pm.net_rate >= network_share * nm.net_rate
                              AND pm.net_rate >= network_min_bytes_per_second, false) END AS network
    FROM spans s
    LEFT JOIN pm ON pm.cluster = s.cluster AND pm.namespace = s.namespace AND pm.pod = s.pod AND pm.node = s.node
                AND pm.at = s.at AND pm.span = s.span
    LEFT JOIN nm ON nm.cluster = s.cluster AND nm.node = s.node AND nm.at = s.at AND nm.span = s.span)
SELECT r.cluster, r.namespace, r.pod, r.node, r.at, r.span, r.pod_reported, r.node_reported, r.cpu_saturated,
       r.io_wait, r.network,
       CASE WHEN r.cpu_saturated THEN 'cpu-saturated' WHEN r.io_wait THEN 'io-wait' WHEN r.network THEN 'network' END
FROM judged r
$$;
