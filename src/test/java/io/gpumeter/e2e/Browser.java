package io.gpumeter.e2e;

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
 * Headless Debian Chromium driven through chromedriver, with what the console's tests ask of it: open a page, wait for
 * a chart, read a table's cells, check the browser console for errors, keep a screenshot.
 */
final class Browser implements AutoCloseable {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    final WebDriver driver;
    private final Path profile;
    private final Path screenshots;
    private final String base;

    static boolean installed() {
        return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    }

    Browser(String base, Path screenshots) throws IOException {
        this.base = base.replaceAll("/$", "");
        this.screenshots = Files.createDirectories(screenshots);
        this.profile = Files.createTempDirectory("gpumeter-e2e-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        // No network beyond the console: the pages must carry every asset themselves.
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1440,1200", "--user-data-dir=" + profile);
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
    }

    void go(String pathAndQuery) {
        driver.get(base + pathAndQuery);
    }

    void open(String url) {
        driver.get(url);
    }

    String source() {
        return driver.getPageSource();
    }

    /** Waits until the chart with this id is drawn (console.js marks it) as SVG. */
    void chartDrawn(String id) {
        new WebDriverWait(driver, Duration.ofSeconds(20))
                .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#" + id + "[data-drawn='true'] svg")));
    }

    /** Every chart on the page is drawn, and there is at least one. */
    int chartsDrawn() {
        List<String> ids = driver.findElements(By.cssSelector("div.chart[id]")).stream().map(e -> e.getAttribute("id")).toList();
        ids.forEach(this::chartDrawn);
        return ids.size();
    }

    List<String> texts(String selector) {
        return driver.findElements(By.cssSelector(selector)).stream().map(e -> e.getText().strip()).toList();
    }

    List<String> attributes(String selector, String attribute) {
        return driver.findElements(By.cssSelector(selector)).stream().map(e -> e.getAttribute(attribute)).toList();
    }

    void noConsoleErrors(String page) {
        List<LogEntry> errors = driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue()).toList();
        assertTrue(errors.isEmpty(), page + ": the browser console has errors: " + errors);
    }

    void shoot(String name) throws IOException {
        File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), screenshots.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void close() throws IOException {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        }
    }
}
