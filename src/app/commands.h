/* commands.h - the subcommands of the raystream program. Host C11, application layer.
 * Each takes the arguments after its own name and returns the process exit code. */
#ifndef RS_APP_COMMANDS_H
#define RS_APP_COMMANDS_H

int rs_cmd_render(int argc, char** argv);
int rs_cmd_info(int argc, char** argv);
int rs_cmd_bench(int argc, char** argv);
int rs_cmd_bench_compact(int argc, char** argv);
int rs_cmd_bench_trace(int argc, char** argv);
int rs_cmd_bench_quality(int argc, char** argv);
int rs_cmd_view(int argc, char** argv);
int rs_cmd_convert(int argc, char** argv);

#endif /* RS_APP_COMMANDS_H */
