package io.gpumeter.launcher.suite;

import java.util.Set;

/** Where a client reaches services bound to a listen address: a wildcard address is reached on loopback. */
final class ListenAddress {

    private static final Set<String> IPV4_ANY = Set.of("0.0.0.0");
    private static final Set<String> IPV6_ANY = Set.of("::", "[::]", "0:0:0:0:0:0:0:0");

    private ListenAddress() {
    }

    /** The host part of a URL to the services, e.g. {@code 127.0.0.1}, {@code [::1]} or {@code gpu-box.lan}. */
    static String urlHost(String listen) {
        if (IPV4_ANY.contains(listen)) {
            return "127.0.0.1";
        }
        if (IPV6_ANY.contains(listen)) {
            return "[::1]";
        }
        return listen.contains(":") && !listen.startsWith("[") ? "[" + listen + "]" : listen;
    }
}
