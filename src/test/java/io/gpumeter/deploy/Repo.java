package io.gpumeter.deploy;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/** The repository the tests check: its root, the five services and the project version. */
final class Repo {

    /** The five services, in port order. */
    static final List<String> SERVICES = List.of("collector", "ledger", "slo", "alert", "billing");

    /** The web console, deployed beside them: module, Deployment, Service and image are all named "console". */
    static final String CONSOLE = "console";

    /** The MCP server, deployed beside them: module, Deployment, Service and image are all named "mcp-service". */
    static final String MCP = "mcp";

    /** The five services, the console and the MCP server: everything that has an image. */
    static final List<String> APPS = List.of("collector", "ledger", "slo", "alert", "billing", CONSOLE, MCP);

    /** The Maven module, Deployment, Service and image name: {@code ledger-service}, {@code console}. */
    static String name(String app) {
        return app.equals(CONSOLE) ? CONSOLE : app + "-service";
    }

    /** Whether a service ("ledger") keeps a schema in the database; the collector keeps nothing. */
    static boolean usesDatabase(String svc) {
        return !svc.equals("collector") && !svc.equals(MCP);
    }

    private static Path root;

    private Repo() {
    }

    /** {@code -Dgpumeter.root} (set by the module's Surefire configuration), else the first parent holding k8s/. */
    static synchronized Path root() {
        if (root == null) {
            String configured = System.getProperty("gpumeter.root");
            if (configured != null && !configured.isBlank()) {
                root = Path.of(configured).toAbsolutePath().normalize();
            } else {
                Path dir = Path.of("").toAbsolutePath();
                while (dir != null && !Files.isDirectory(dir.resolve("k8s"))) {
                    dir = dir.getParent();
                }
                if (dir == null) {
                    throw new IllegalStateException("no k8s/ directory above " + Path.of("").toAbsolutePath()
                            + "; set -Dgpumeter.root");
                }
                root = dir;
            }
            if (!Files.isDirectory(root.resolve("k8s"))) {
                throw new IllegalStateException(root + " has no k8s/ directory");
            }
        }
        return root;
    }

    static Path k8s() {
        return root().resolve("k8s");
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The HTTP port a service listens on, from its application.properties. */
    static int port(String service) {
        return Integer.parseInt(properties(service).getProperty("quarkus.http.port").trim());
    }

    /** The port of a service's management interface (/q/health, /q/metrics), from its application.properties. */
    static int managementPort(String service) {
        Properties props = properties(service);
        if (!"true".equals(props.getProperty("quarkus.management.enabled", "").trim())) {
            throw new AssertionError(service + "-service does not enable the management interface");
        }
        return Integer.parseInt(props.getProperty("quarkus.management.port").trim());
    }

    private static Properties properties(String service) {
        Properties props = new Properties();
        Path file = root().resolve(name(service) + "/src/main/resources/application.properties");
        try (Reader in = Files.newBufferedReader(file)) {
            props.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return props;
    }

    /** The version of the root POM, which is also the tag of the images. */
    static String projectVersion() {
        try (InputStream in = Files.newInputStream(root().resolve("pom.xml"))) {
            Document pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
            for (Node n = pom.getDocumentElement().getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element e && e.getTagName().equals("version")) {
                    return e.getTextContent().trim();
                }
            }
            throw new IllegalStateException("the root pom.xml has no <version>");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the root pom.xml", e);
        }
    }

    /** The test resource {@code deploy/<name>} as text. */
    static String resource(String name) {
        try (InputStream in = Repo.class.getResourceAsStream("/deploy/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource deploy/" + name);
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
