package io.gpumeter.launcher.suite;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** Port checks before anything starts, so a busy port fails fast with its name instead of a stack trace later. */
public final class Ports {

    private Ports() {
    }

    /** True when nothing listens on {@code port} (on any address). */
    public static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName("0.0.0.0"), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A port the system considers free right now. */
    public static int anyFree() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new SuiteException("could not find a free port", e);
        }
    }

    /** Distinct free ports for every service. */
    public static Map<Service, Integer> freeFor(Iterable<Service> services) {
        Map<Service, Integer> ports = new EnumMap<>(Service.class);
        Set<Integer> taken = new HashSet<>();
        for (Service s : services) {
            int port;
            do {
                port = anyFree();
            } while (!taken.add(port));
            ports.put(s, port);
        }
        return ports;
    }

    static void requireFree(Service service, int port) {
        if (!isFree(port)) {
            throw new SuiteException("port " + port + " for " + service.module() + " is already in use. "
                    + "Another gpumeter (or an old service) may still be running: see `ss -ltnp 'sport = :" + port
                    + "'`, stop it, or move the suite with --base-port.");
        }
    }
}
