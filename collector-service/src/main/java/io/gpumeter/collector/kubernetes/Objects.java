package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.ObjectMeta;

/** Checks the metadata every fact's natural key is made of. */
final class Objects {

    private Objects() {
    }

    static ObjectMeta metadata(ObjectMeta meta, boolean namespaced) {
        if (meta == null) {
            throw new Skip("no metadata");
        }
        if (blank(meta.getName())) {
            throw new Skip("no metadata.name");
        }
        if (namespaced && blank(meta.getNamespace())) {
            throw new Skip("no metadata.namespace");
        }
        if (namespaced && blank(meta.getUid())) {
            throw new Skip("no metadata.uid");
        }
        if (blank(meta.getResourceVersion())) {
            throw new Skip("no metadata.resourceVersion");
        }
        return meta;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
