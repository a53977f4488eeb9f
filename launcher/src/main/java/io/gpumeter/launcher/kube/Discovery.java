package io.gpumeter.launcher.kube;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The discovery documents of the simulated API server: {@code /api}, {@code /api/v1} and {@code /apis}. It holds the
 * core kinds the simulated fleet is made of (namespaces, nodes, pods, events) and serves no API group, so a client
 * that asks for Kueue or Volcano learns that they are not installed here.
 */
final class Discovery {

    /** One resource of the core group: its plural, kind, short names and whether it lives in a namespace. */
    record Resource(String plural, String singular, String kind, boolean namespaced, List<String> shortNames) {
    }

    static final List<Resource> CORE = List.of(
            new Resource("namespaces", "namespace", "Namespace", false, List.of("ns")),
            new Resource("nodes", "node", "Node", false, List.of("no")),
            new Resource("pods", "pod", "Pod", true, List.of("po")),
            new Resource("events", "event", "Event", true, List.of("ev")));

    private static final String VERBS = "[\"create\",\"delete\",\"deletecollection\",\"get\",\"list\",\"patch\","
            + "\"update\",\"watch\"]";

    private Discovery() {
    }

    /** An answer: its HTTP status and JSON body. */
    record Answer(int status, String body) {
    }

    /** What {@code /apis/<group>} and {@code /apis/<group>/<version>} answer: no group is served. */
    private static final Answer NOT_FOUND = new Answer(404, "{\"kind\":\"Status\",\"apiVersion\":\"v1\","
            + "\"metadata\":{},\"status\":\"Failure\",\"reason\":\"NotFound\",\"code\":404,"
            + "\"message\":\"the server could not find the requested resource\"}");

    /**
     * The answer at {@code path} (query ignored): a discovery document, or a 404 for a group or group version, which
     * is never served; null when the path is no discovery path.
     */
    static Answer answer(String path) {
        if (path == null) {
            return null;
        }
        int query = path.indexOf('?');
        String bare = query < 0 ? path : path.substring(0, query);
        if (bare.length() > 1 && bare.endsWith("/")) {
            bare = bare.substring(0, bare.length() - 1);
        }
        return switch (bare) {
            case "/api" -> ok("{\"kind\":\"APIVersions\",\"versions\":[\"v1\"],\"serverAddressByClientCIDRs\":"
                    + "[{\"clientCIDR\":\"0.0.0.0/0\",\"serverAddress\":\"127.0.0.1\"}]}");
            case "/api/v1" -> ok(coreResources());
            case "/apis" -> ok("{\"kind\":\"APIGroupList\",\"apiVersion\":\"v1\",\"groups\":[]}");
            default -> bare.matches("/apis/[^/]+(/[^/]+)?") ? NOT_FOUND : null;
        };
    }

    private static Answer ok(String body) {
        return new Answer(200, body);
    }

    private static String coreResources() {
        String resources = CORE.stream().map(r -> "{\"name\":\"" + r.plural() + "\",\"singularName\":\""
                        + r.singular() + "\",\"namespaced\":" + r.namespaced() + ",\"kind\":\"" + r.kind()
                        + "\",\"verbs\":" + VERBS + ",\"shortNames\":[" + r.shortNames().stream()
                        .map(n -> "\"" + n + "\"").collect(Collectors.joining(",")) + "]}")
                .collect(Collectors.joining(","));
        return "{\"kind\":\"APIResourceList\",\"apiVersion\":\"v1\",\"groupVersion\":\"v1\",\"resources\":["
                + resources + "]}";
    }
}
