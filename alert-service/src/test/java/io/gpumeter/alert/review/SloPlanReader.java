package io.gpumeter.alert.review;

import com.fasterxml.jackson.databind.JsonNode;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * slo-service's own plan reader ({@code io.gpumeter.slo.acceptance.PlanReader}, which {@code POST
 * /api/v1/acceptance/runs} runs on its body), loaded from slo-service's build — its classes in the reactor, else its
 * installed jar — beside this module's Jackson and common, so that an exported plan is checked by the code that will
 * read it rather than by a copy of its rules.
 */
public final class SloPlanReader {

    /** slo-service's default longest plan window (gpumeter.slo.latency.max-query-window). */
    public static final Duration LONGEST = Duration.ofDays(7);

    private static Method read;

    private SloPlanReader() {
    }

    /**
     * The plan slo-service reads from {@code body} (its {@code Plan} record); slo-service's refusal is thrown as it
     * makes it (an InvalidInput naming the field).
     */
    public static Object read(JsonNode body) {
        try {
            return reader().invoke(null, body, LONGEST);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A component of a record slo-service built, by its accessor's name. */
    public static Object get(Object record, String component) {
        try {
            Method m = record.getClass().getMethod(component);
            m.setAccessible(true);
            return m.invoke(record);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(component + " of " + record.getClass().getName(), e);
        }
    }

    /** The names of what a clause of slo-service's plan may measure ({@code Plan.Metric}), in its order. */
    public static java.util.List<String> metrics() {
        reader();
        try {
            Object[] members = Class.forName("io.gpumeter.slo.acceptance.Plan$Metric", true, loader).getEnumConstants();
            return java.util.Arrays.stream(members).map(m -> ((Enum<?>) m).name()).toList();
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("slo-service's Plan.Metric is not where it was", e);
        }
    }

    private static ClassLoader loader;

    private static synchronized Method reader() {
        if (read == null) {
            try {
                loader = new URLClassLoader(new URL[]{location().toUri().toURL()}, SloPlanReader.class.getClassLoader());
                read = Class.forName("io.gpumeter.slo.acceptance.PlanReader", true, loader)
                        .getMethod("read", JsonNode.class, Duration.class);
            } catch (ClassNotFoundException | NoSuchMethodException | MalformedURLException e) {
                throw new IllegalStateException("slo-service's PlanReader.read(JsonNode, Duration) is not where it was", e);
            }
        }
        return read;
    }

    /** slo-service's compiled classes beside this module, else the jar `mvn install` put in the local repository. */
    private static Path location() {
        Path classes = Path.of("..", "slo-service", "target", "classes");
        if (Files.isRegularFile(classes.resolve("io/gpumeter/slo/acceptance/PlanReader.class"))) {
            return classes;
        }
        String repo = System.getProperty("maven.repo.local", System.getProperty("user.home") + "/.m2/repository");
        Path jar = Path.of(repo, "io/gpumeter/gpumeter-slo-service/0.1.0-SNAPSHOT/gpumeter-slo-service-0.1.0-SNAPSHOT.jar");
        if (Files.isRegularFile(jar)) {
            return jar;
        }
        throw new IllegalStateException("slo-service is not built: run mvn -pl slo-service install -DskipTests first");
    }
}
