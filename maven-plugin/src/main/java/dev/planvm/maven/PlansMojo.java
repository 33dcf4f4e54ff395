package dev.planvm.maven;

import java.io.File;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;

/** What both goals share: the directory, {@code skip}, and turning a {@link PlanChecks.Result} into the build's outcome. */
abstract class PlansMojo extends AbstractMojo {

    /** The directory of plans (not recursive): {@code *.json} (not cassettes, expectations or traces), {@code *.yaml}, {@code *.yml}, {@code *.js}. */
    @Parameter(property = "planvm.plansDirectory", defaultValue = "${project.basedir}/plans")
    File plansDirectory;

    /** Skip the goal. */
    @Parameter(property = "planvm.skip", defaultValue = "false")
    boolean skip;

    /** The goal's name, for messages. */
    abstract String goal();

    /** Whether the goal is skipped besides {@link #skip}. */
    boolean skipped() {
        return skip;
    }

    /** Runs the check. */
    abstract PlanChecks.Result check(PlanChecks checks) throws MojoExecutionException;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skipped()) {
            getLog().info("planvm:" + goal() + " skipped");
            return;
        }
        PlanChecks checks = new PlanChecks(plansDirectory.toPath(), new PlanChecks.Report() {
            @Override
            public void info(String line) {
                getLog().info(line);
            }

            @Override
            public void warn(String line) {
                getLog().warn(line);
            }

            @Override
            public void error(String line) {
                getLog().error(line);
            }
        });
        String problem = checks.problem();
        if (problem != null) {
            throw new MojoExecutionException("planvm:" + goal() + ": " + problem);
        }
        PlanChecks.Result result = check(checks);
        getLog().info(result.summary());
        if (!result.passed()) {
            throw new MojoFailureException("planvm:" + goal() + " failed (" + result.summary() + "):\n"
                    + String.join("\n", result.failures()));
        }
    }
}
