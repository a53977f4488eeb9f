package io.gpumeter.launcher.kube;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The discovery documents of the simulated API server: {@code /api}, {@code /api/v1}, {@code /apis} and the API
 * groups it serves. It holds the core kinds the simulated fleet is made of (namespaces, nodes, pods, events),
 * {@code apps/v1}'s DaemonSets and Deployments (the GPU stack's workloads) and Dynamic Resource Allocation's
 * {@code resource.k8s.io/v1} (ResourceClaims, ResourceSlices, DeviceClasses), which the DRA node pool is published
 * through; any other group answers 404, so a client that asks for Kueue or Volcano learns that they are not
 * installed here.
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

    static final String APPS_GROUP = "apps";
    static final String APPS_VERSION = "v1";

    static final List<Resource> APPS = List.of(
            new Resource("daemonsets", "daemonset", "DaemonSet", true, List.of("ds")),
            new Resource("deployments", "deployment", "Deployment", true, List.of("deploy")));

    /** The Dynamic Resource Allocation group, GA since Kubernetes 1.34. */
    static final String RESOURCE_GROUP = "resource.k8s.io";
    static final String RESOURCE_VERSION = "v1";

    static final List<Resource> RESOURCE = List.of(
            new Resource("deviceclasses", "deviceclass", "DeviceClass", false, List.of()),
            new Resource("resourceclaims", "resourceclaim", "ResourceClaim", true, List.of()),
            new Resource("resourceslices", "resourceslice", "ResourceSlice", false, List.of()));

    private static final String VERBS = "[\"create\",\"delete\",\"deletecollection\",\"get\",\"list\",\"patch\","
            + "\"update\",\"watch\"]";

    private Discovery() {
    }

    /** An answer: its HTTP status and JSON body. */
    record Answer(int status, String body) {
    }

    /** What {@code /apis/<group>} and {@code /apis/<group>/<version>} answer for a group that is not served. */
    private static final Answer NOT_FOUND = new Answer(404, "{\"kind\":\"Status\",\"apiVersion\":\"v1\","
            + "\"metadata\":{},\"status\":\"Failure\",\"reason\":\"NotFound\",\"code\":404,"
            + "\"message\":\"the server could not find the requested resource\"}");

    /**
     * The answer at {@code path} (query ignored): a discovery document, or a 404 for a group or group version that is
     * not served; null when the path is no discovery path.
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
            case "/api/v1" -> ok(resources("v1", CORE));
            case "/apis" -> ok("{\"kind\":\"APIGroupList\",\"apiVersion\":\"v1\",\"groups\":["
                    + group(APPS_GROUP, APPS_VERSION, false) + "," + group(RESOURCE_GROUP, RESOURCE_VERSION, false) + "]}");
            case "/apis/" + APPS_GROUP -> ok(group(APPS_GROUP, APPS_VERSION, true));
            case "/apis/" + APPS_GROUP + "/" + APPS_VERSION -> ok(resources(APPS_GROUP + "/" + APPS_VERSION, APPS));
            case "/apis/" + RESOURCE_GROUP -> ok(group(RESOURCE_GROUP, RESOURCE_VERSION, true));
            case "/apis/" + RESOURCE_GROUP + "/" + RESOURCE_VERSION ->
                    ok(resources(RESOURCE_GROUP + "/" + RESOURCE_VERSION, RESOURCE));
            default -> bare.matches("/apis/[^/]+(/[^/]+)?") ? NOT_FOUND : null;
        };
    }

    private static Answer ok(String body) {
        return new Answer(200, body);
    }

    /** A group of one version: as an entry of the group list, or as the document of its own path. */
    private static String group(String name, String versionName, boolean document) {
        String version = "{\"groupVersion\":\"" + name + "/" + versionName + "\",\"version\":\"" + versionName + "\"}";
        return "{" + (document ? "\"kind\":\"APIGroup\",\"apiVersion\":\"v1\"," : "") + "\"name\":\"" + name
                + "\",\"versions\":[" + version + "],\"preferredVersion\":" + version + "}";
    }

    private static String resources(String groupVersion, List<Resource> kinds) {
        String resources = kinds.stream().map(r -> "{\"name\":\"" + r.plural() + "\",\"singularName\":\""
                        + r.singular() + "\",\"namespaced\":" + r.namespaced() + ",\"kind\":\"" + r.kind()
                        + "\",\"verbs\":" + VERBS + ",\"shortNames\":[" + r.shortNames().stream()
                        .map(n -> "\"" + n + "\"").collect(Collectors.joining(",")) + "]}")
                .collect(Collectors.joining(","));
        return "{\"kind\":\"APIResourceList\",\"apiVersion\":\"v1\",\"groupVersion\":\"" + groupVersion
                + "\",\"resources\":[" + resources + "]}";
    }
}
