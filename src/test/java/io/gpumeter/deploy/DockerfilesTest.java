package io.gpumeter.deploy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each service's (and the console's) JVM and native Dockerfiles follow Quarkus's layout and match what k8s/ runs. */
class DockerfilesTest {

    static Stream<String> services() {
        return Repo.APPS.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("services")
    void jvmImage(String svc) {
        Path file = Repo.root().resolve(Repo.name(svc) + "/src/main/docker/Dockerfile.jvm");
        assertTrue(Files.isRegularFile(file), file + " missing");
        String text = Repo.read(file);
        Matcher from = Pattern.compile("(?m)^FROM registry\\.access\\.redhat\\.com/ubi9/openjdk-(\\d+)(-runtime)?:[0-9.]+$").matcher(text);
        assertTrue(from.find(), svc + ": FROM a pinned UBI 9 OpenJDK image");
        int release = Integer.parseInt(Repo.read(Repo.root().resolve("pom.xml"))
                .replaceAll("(?s).*<maven.compiler.release>(\\d+)</maven.compiler.release>.*", "$1"));
        assertTrue(Integer.parseInt(from.group(1)) >= release, svc + ": the image's JDK runs Java " + release);
        for (String layer : List.of("target/quarkus-app/lib/ /deployments/lib/", "target/quarkus-app/*.jar /deployments/",
                "target/quarkus-app/app/ /deployments/app/", "target/quarkus-app/quarkus/ /deployments/quarkus/")) {
            assertTrue(text.contains("COPY --chown=185 " + layer), svc + ": copies " + layer);
        }
        assertTrue(text.contains("ENV JAVA_APP_JAR=\"/deployments/quarkus-run.jar\""), svc + ": runs quarkus-run.jar");
        assertTrue(text.contains("ENTRYPOINT [ \"/opt/jboss/container/java/run/run-java.sh\" ]"), svc + ": run-java.sh");
        assertCommon(svc, text, "185");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("services")
    void nativeImage(String svc) {
        Path file = Repo.root().resolve(Repo.name(svc) + "/src/main/docker/Dockerfile.native-micro");
        assertTrue(Files.isRegularFile(file), file + " missing");
        String text = Repo.read(file);
        assertTrue(text.contains("\nFROM quay.io/quarkus/quarkus-micro-image:2.0\n"), svc + ": Quarkus micro base image");
        assertTrue(text.contains("target/*-runner /work/application"), svc + ": copies the native executable");
        assertTrue(text.contains("-Pnative"), svc + ": says how to build the executable");
        assertCommon(svc, text, "1001");
        assertTrue(Repo.read(Repo.root().resolve("service-parent/pom.xml")).contains("<id>native</id>"), "the services' parent POM has the native profile");
    }

    private static void assertCommon(String svc, String text, String user) {
        Matcher expose = Pattern.compile("(?m)^EXPOSE (\\d+) (\\d+)$").matcher(text);
        assertTrue(expose.find(), svc + ": EXPOSE the API port and the management port");
        assertEquals(Repo.port(svc), Integer.parseInt(expose.group(1)), svc + ": exposed port vs quarkus.http.port");
        assertEquals(Repo.managementPort(svc), Integer.parseInt(expose.group(2)), svc + ": exposed port vs quarkus.management.port");
        assertTrue(Pattern.compile("(?m)^USER " + user + "$").matcher(text).find(), svc + ": runs as non-root user " + user);
        assertTrue(text.contains("-Dquarkus.http.host=0.0.0.0"), svc + ": listens on all interfaces");
        assertTrue(text.contains("ghcr.io/gpumeter/" + Repo.name(svc) + ":"), svc + ": names the image k8s/ deploys");
    }
}
