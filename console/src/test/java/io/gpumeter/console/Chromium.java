package io.gpumeter.console;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.logging.Level;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Debian's headless Chromium driven by its ChromeDriver, for the browser tests: a fresh profile per test class, the
 * browser's console log kept, and the steps every browser test takes (sign in, wait for a chart, read a table's
 * cells, check the console for errors, save a screenshot under target/screenshots/).
 */
final class Chromium {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final Path SCREENSHOTS = Path.of("target", "screenshots");

    final ChromeDriver browser;
    private final Path profile;

    private Chromium(ChromeDriver browser, Path profile) {
        this.browser = browser;
        this.profile = profile;
    }

    /** A browser, or the test class skipped when Chromium is not installed. */
    static Chromium start() throws IOException {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "Chromium is not installed (apt-get install -y chromium chromium-driver): browser test skipped");
        Path profile = Files.createTempDirectory("gpumeter-console-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1440,1200", "--user-data-dir=" + profile);
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        ChromeDriver browser = new ChromeDriver(service, options);
        browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        Files.createDirectories(SCREENSHOTS);
        return new Chromium(browser, profile);
    }

    void quit() throws IOException {
        browser.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        }
    }

    /** Signed out, and the console log of the tests before dropped: each test answers for its own errors. */
    void signedOut() {
        browser.manage().deleteAllCookies();
        browser.manage().logs().get(LogType.BROWSER);
    }

    void signIn(String token) {
        browser.findElement(By.id("token")).sendKeys(token);
        browser.findElement(By.cssSelector("#paste-form button[type=submit]")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> !d.getCurrentUrl().contains("/signin"));
    }

    void chartDrawn(String id) {
        new WebDriverWait(browser, Duration.ofSeconds(15))
                .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#" + id + "[data-drawn='true'] svg")));
    }

    void waitForUrl(String part) {
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains(part));
    }

    List<String> cells(String selector, boolean firstLineOnly) {
        return browser.findElements(By.cssSelector(selector)).stream()
                .map(e -> firstLineOnly ? e.getText().lines().findFirst().orElse("") : e.getText().strip()).toList();
    }

    void noConsoleErrors(String page) {
        List<LogEntry> errors = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue()).toList();
        assertTrue(errors.isEmpty(), page + ": the browser console has errors: " + errors);
    }

    void shoot(String name) throws IOException {
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }
}
