/* cmd_completion.c: `ikshade completion bash|zsh|fish`: a shell's completion script, written from the
 * command table and each command's option table, so that the completions offer exactly what the
 * program parses. The build writes all three (CMakeLists.txt) and the package installs them.
 * What it does not do: run at Tab time (the scripts are plain data for the shells). */
#include "cli/cli.h"
#include "ikshade/ikshade.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const iks_help HELP_COMPLETION = {
    .usage = "usage: ikshade completion bash|zsh|fish\n",
    .about = "Prints the completion script of a shell for ikshade's commands, options and their values, made\n"
             "from the same tables that parse them. The package installs all three; by hand:\n"
             "  ikshade completion bash > ~/.local/share/bash-completion/completions/ikshade\n"
             "  ikshade completion zsh > ~/.zfunc/_ikshade     (with fpath+=~/.zfunc before compinit)\n"
             "  ikshade completion fish > ~/.config/fish/completions/ikshade.fish\n",
    .operand = "words:bash zsh fish",
};

/* ---- walking a command's options ------------------------------------------------------------------ */

typedef void (*opt_fn)(const iks_opt *o, void *ctx);

static void each_opt(const iks_opt *t, opt_fn fn, void *ctx)
{
    for (; t && t->kind != IKS_OPT_END; t++) {
        if (t->kind == IKS_OPT_TABLE) each_opt(t->sub, fn, ctx);
        else fn(t, ctx);
    }
}

/* the n-th alternative ('|' separated) of a completion spec, with its kind's prefix removed: "words",
 * "file", "dir"; false past the last */
static bool alternative(const char *spec, int n, char *kind, size_t nk, char *arg, size_t na)
{
    const char *p = spec;
    for (int i = 0; p && i < n; i++) p = strchr(p, '|'), p = p ? p + 1 : NULL;
    if (!p || !*p) return false;
    size_t len = strcspn(p, "|"), k = strcspn(p, ":|");
    snprintf(kind, nk, "%.*s", (int)k, p);
    snprintf(arg, na, "%.*s", k < len ? (int)(len - k - 1) : 0, k < len ? p + k + 1 : "");
    return true;
}

/* o's completion: its row's, or the library's where the row defers to it (a channel spec's kinds) */
static const char *complete_of(const iks_opt *o)
{
    return o->complete && !strcmp(o->complete, IKS_COMPLETE_CHANNEL) ? iks_channel_completion() : o->complete;
}

/* the first line of a help text, for the shells that show one */
static void first_line(FILE *f, const char *help, const char *drop)
{
    for (const char *h = help ? help : ""; *h && *h != '\n'; h++) {
        if (strchr(drop, *h)) fputc(*h == '\'' ? '`' : ' ', f);
        else fputc(*h, f);
    }
}

/* ---- bash ---------------------------------------------------------------------------------------- */

static void bash_names(const iks_opt *o, void *ctx)
{
    FILE *f = ctx;
    fprintf(f, " %s", o->name);
    if (o->alias) fprintf(f, " %s", o->alias);
}

static void bash_value(const iks_opt *o, void *ctx)
{
    FILE *f = ctx;
    if (!o->arg) return;
    fprintf(f, "        %s%s%s)\n", o->name, o->alias ? "|" : "", o->alias ? o->alias : "");
    char kind[16], arg[256];
    bool any = false;
    for (int i = 0; complete_of(o) && alternative(complete_of(o), i, kind, sizeof kind, arg, sizeof arg); i++) {
        any = true;
        if (!strcmp(kind, "words")) fprintf(f, "            COMPREPLY+=($(compgen -W \"%s\" -- \"$cur\"))\n", arg);
        else if (!strcmp(kind, "dir")) fprintf(f, "            _filedir -d\n");
        else if (arg[0]) {
            fprintf(f, "            _filedir '@(");
            for (const char *e = arg; *e; e++) fputc(*e == ' ' ? '|' : *e, f);
            fprintf(f, ")'\n");
        } else fprintf(f, "            _filedir\n");
    }
    if (!any) fprintf(f, "            : # a value to type\n");
    fprintf(f, "            return ;;\n");
}

static void bash_operands(FILE *f, const char *spec)
{
    if (!spec) return;
    if (!strcmp(spec, "toy")) {
        fprintf(f, "    _filedir '@(frag|glsl|fs|json)'\n    COMPREPLY+=($(compgen -W \"");
        iks_cli_demo_names(f);
        fprintf(f, "\" -- \"$cur\"))\n");
    }
    else if (!strncmp(spec, "words:", 6)) fprintf(f, "    COMPREPLY=($(compgen -W \"%s\" -- \"$cur\"))\n", spec + 6);
}

static void bash(FILE *f)
{
    fprintf(f, "# bash completion for ikshade: made by `ikshade completion bash` from its option tables\n"
               "_ikshade()\n{\n    local cur prev words cword\n    _init_completion || return\n"
               "    if [ \"$cword\" -eq 1 ]; then\n        COMPREPLY=($(compgen -W \"");
    for (int i = 0; i < IKS_NCOMMANDS; i++) fprintf(f, "%s ", IKS_COMMANDS[i].name);
    fprintf(f, "help --help --version\" -- \"$cur\"))\n        return\n    fi\n    case ${words[1]} in\n");
    fprintf(f, "    help)\n        [ \"$cword\" -eq 2 ] && COMPREPLY=($(compgen -W \"");
    for (int i = 0; i < IKS_NCOMMANDS; i++) fprintf(f, "%s ", IKS_COMMANDS[i].name);
    fprintf(f, "uniforms\" -- \"$cur\"))\n        return ;;\n");
    for (int i = 0; i < IKS_NCOMMANDS; i++) {
        const iks_command *c = &IKS_COMMANDS[i];
        fprintf(f, "    %s)\n        case $prev in\n", c->name);
        each_opt(c->help->options, bash_value, f);
        fprintf(f, "        esac\n        if [[ $cur == -* ]]; then\n            COMPREPLY=($(compgen -W \"--help");
        each_opt(c->help->options, bash_names, f);
        fprintf(f, "\" -- \"$cur\"))\n            return\n        fi\n");
        bash_operands(f, c->help->operand);
        fprintf(f, "        ;;\n");
    }
    fprintf(f, "    esac\n} && complete -F _ikshade ikshade\n");
}

/* ---- zsh ----------------------------------------------------------------------------------------- */

static void zsh_value(FILE *f, const iks_opt *o)
{
    char kind[16], arg[256];
    if (!o->arg) return;
    fprintf(f, ":%s:", o->arg);
    if (!complete_of(o)) return;
    /* one action: the words, else the files */
    for (int i = 0; alternative(complete_of(o), i, kind, sizeof kind, arg, sizeof arg); i++) {
        if (!strcmp(kind, "words")) {
            fprintf(f, "(%s)", arg);
            return;
        }
    }
    alternative(complete_of(o), 0, kind, sizeof kind, arg, sizeof arg);
    if (!strcmp(kind, "dir")) fprintf(f, "_files -/");
    else if (arg[0]) {
        fprintf(f, "_files -g \\\"*.(");
        for (const char *e = arg; *e; e++) fputc(*e == ' ' ? '|' : *e, f);
        fprintf(f, ")\\\"");
    } else fprintf(f, "_files");
}

static void zsh_opt(const iks_opt *o, void *ctx)
{
    FILE *f = ctx;
    const char *repeat = o->kind == IKS_OPT_LIST ? "*" : "";
    if (o->alias) fprintf(f, "        \"(%s %s)\"{%s,%s}\"[", o->name, o->alias, o->name, o->alias);
    else fprintf(f, "        \"%s%s[", repeat, o->name);
    first_line(f, o->help, "[]:\"\\`$");
    fprintf(f, "]");
    zsh_value(f, o);
    fprintf(f, "\" \\\n");
}

static void zsh(FILE *f)
{
    fprintf(f, "#compdef ikshade\n# zsh completion for ikshade: made by `ikshade completion zsh` from its option tables\n"
               "_ikshade() {\n    local -a commands\n    commands=(\n");
    for (int i = 0; i < IKS_NCOMMANDS; i++) {
        fprintf(f, "        '%s:", IKS_COMMANDS[i].name);
        first_line(f, IKS_COMMANDS[i].summary, "'");
        fprintf(f, "'\n");
    }
    fprintf(f, "        'help:a command'\\''s options'\n    )\n    if (( CURRENT == 2 )); then\n"
               "        _describe command commands\n        return\n    fi\n    local cmd=$words[2]\n"
               "    shift words\n    (( CURRENT-- ))\n    case $cmd in\n");
    for (int i = 0; i < IKS_NCOMMANDS; i++) {
        const iks_command *c = &IKS_COMMANDS[i];
        fprintf(f, "    %s)\n        _arguments -s \\\n", c->name);
        each_opt(c->help->options, zsh_opt, f);
        const char *op = c->help->operand;
        if (op && !strcmp(op, "toy")) {
            fprintf(f, "        \"*:shader or demo:_alternative 'files:shader:_files -g \\\"*.(frag|glsl|fs|json)\\\"' 'demos:demo:(");
            iks_cli_demo_names(f);
            fprintf(f, ")'\"\n");
        }
        else if (op && !strncmp(op, "words:", 6)) fprintf(f, "        \"1:what:(%s)\"\n", op + 6);
        else fprintf(f, "        \n");
        fprintf(f, "        ;;\n");
    }
    fprintf(f, "    help)\n        _describe command commands\n        ;;\n    esac\n}\n_ikshade \"$@\"\n");
}

/* ---- fish ---------------------------------------------------------------------------------------- */

typedef struct {
    FILE *f;
    const char *cmd;
} fish_ctx;

static void fish_opt(const iks_opt *o, void *vctx)
{
    fish_ctx *c = vctx;
    FILE *f = c->f;
    fprintf(f, "complete -c ikshade -n '__fish_seen_subcommand_from %s'", c->cmd);
    const char *names[2] = { o->name, o->alias };
    for (int k = 0; k < 2; k++) {
        const char *n = names[k];
        if (!n) continue;
        if (n[1] == '-') fprintf(f, " -l %s", n + 2);
        else if (strlen(n) == 2) fprintf(f, " -s %s", n + 1);
        else fprintf(f, " -o %s", n + 1);
    }
    char kind[16], arg[256];
    if (o->arg) {
        fprintf(f, " -r");
        bool files = false;
        for (int i = 0; complete_of(o) && alternative(complete_of(o), i, kind, sizeof kind, arg, sizeof arg); i++) {
            if (!strcmp(kind, "words")) fprintf(f, " -a '%s'", arg);
            else files = true;
        }
        fprintf(f, files ? " -F" : " -f");
    }
    fprintf(f, " -d '");
    first_line(f, o->help, "'\\");
    fprintf(f, "'\n");
}

static void fish(FILE *f)
{
    fprintf(f, "# fish completion for ikshade: made by `ikshade completion fish` from its option tables\n"
               "complete -c ikshade -f\n");
    for (int i = 0; i < IKS_NCOMMANDS; i++) {
        fprintf(f, "complete -c ikshade -n '__fish_use_subcommand' -a %s -d '", IKS_COMMANDS[i].name);
        first_line(f, IKS_COMMANDS[i].summary, "'\\");
        fprintf(f, "'\n");
    }
    fprintf(f, "complete -c ikshade -n '__fish_use_subcommand' -a help -d 'a command\\'s options'\n");
    for (int i = 0; i < IKS_NCOMMANDS; i++) {
        const iks_command *c = &IKS_COMMANDS[i];
        fish_ctx ctx = { f, c->name };
        each_opt(c->help->options, fish_opt, &ctx);
        const char *op = c->help->operand;
        if (op && !strcmp(op, "toy"))
        {
            fprintf(f, "complete -c ikshade -n '__fish_seen_subcommand_from %s' -F -a '(__fish_complete_suffix .frag "
                       ".glsl .fs .json)'\n", c->name);
            fprintf(f, "complete -c ikshade -n '__fish_seen_subcommand_from %s' -a '", c->name);
            iks_cli_demo_names(f);
            fprintf(f, "' -d demo\n");
        }
        else if (op && !strncmp(op, "words:", 6))
            fprintf(f, "complete -c ikshade -n '__fish_seen_subcommand_from %s' -a '%s'\n", c->name, op + 6);
    }
}

int cmd_completion(int argc, char **argv)
{
    if (argc != 2) return iks_usage("completion", "expected one shell: bash, zsh or fish");
    if (!strcmp(argv[1], "bash")) bash(stdout);
    else if (!strcmp(argv[1], "zsh")) zsh(stdout);
    else if (!strcmp(argv[1], "fish")) fish(stdout);
    else return iks_usage("completion", "'%s': expected bash, zsh or fish", argv[1]);
    return EXIT_OK;
}
