package io.gpumeter.ledger.history.domain;

/** Kubernetes resourceVersions: opaque strings that are etcd revisions in practice. */
public final class ResourceVersions {

    private ResourceVersions() {
    }

    /** The revision as a number, or null when this server's versions are not numeric. */
    public static Long revision(String resourceVersion) {
        if (resourceVersion == null) {
            return null;
        }
        try {
            return Long.parseLong(resourceVersion);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
